package org.siebog.message;

import java.io.StringReader;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.Performative;

/**
 * The contract's JSON form of an {@link ACLMessage}, shared with the JavaScript library: fields in
 * the contract's order, absent (null) fields and empty user properties omitted, AIDs as
 * {@code name@platform}, {@code replyBy} as an ISO-8601 instant. Reading is strict: an unknown
 * field or a wrong type is an error that names the field, so a typo never silently drops data.
 */
public final class ACLMessageJson {

    /** Looked up once: {@code Json.createXxx} searches the service loader on every call, which showed up hot in profiles. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private static final Set<String> FIELDS = Set.of("performative", "sender", "receivers", "replyTo", "content",
            "language", "encoding", "ontology", "protocol", "conversationId", "replyWith", "inReplyTo", "replyBy",
            "userProperties");

    private ACLMessageJson() {
    }

    public static JsonObject toJson(ACLMessage msg) {
        JsonObjectBuilder json = JSON.createObjectBuilder().add("performative", msg.performative().name());
        addIfPresent(json, "sender", msg.sender());
        JsonArrayBuilder receivers = JSON.createArrayBuilder();
        msg.receivers().forEach(aid -> receivers.add(aid.toString()));
        json.add("receivers", receivers);
        addIfPresent(json, "replyTo", msg.replyTo());
        addIfPresent(json, "content", msg.content());
        addIfPresent(json, "language", msg.language());
        addIfPresent(json, "encoding", msg.encoding());
        addIfPresent(json, "ontology", msg.ontology());
        addIfPresent(json, "protocol", msg.protocol());
        addIfPresent(json, "conversationId", msg.conversationId());
        addIfPresent(json, "replyWith", msg.replyWith());
        addIfPresent(json, "inReplyTo", msg.inReplyTo());
        addIfPresent(json, "replyBy", msg.replyBy());
        if (!msg.userProperties().isEmpty()) {
            JsonObjectBuilder props = JSON.createObjectBuilder();
            msg.userProperties().forEach(props::add);
            json.add("userProperties", props);
        }
        return json.build();
    }

    public static String write(ACLMessage msg) {
        return toJson(msg).toString();
    }

    public static ACLMessage read(String json) {
        try (var reader = JSON.createReader(new StringReader(json))) {
            return fromJson(reader.readObject());
        } catch (JsonParsingException e) {
            throw new MalformedMessageException("the message is not valid JSON: " + e.getMessage(), e);
        } catch (JsonException | IllegalStateException e) {
            throw new MalformedMessageException("the message must be a JSON object", e);
        }
    }

    public static ACLMessage fromJson(JsonObject json) {
        for (String key : json.keySet()) {
            if (!FIELDS.contains(key)) {
                throw new MalformedMessageException("unknown message field '" + key + "'; the fields are " + new TreeSet<>(FIELDS));
            }
        }
        String performative = string(json, "performative");
        if (performative == null) {
            throw new MalformedMessageException("a message needs a 'performative'");
        }
        ACLMessage.Builder msg;
        try {
            msg = ACLMessage.builder(Performative.valueOf(performative));
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("message field 'performative': unknown performative '" + performative + "'; expected one of "
                    + Arrays.toString(Performative.values()));
        }
        return msg.sender(aid(json, "sender"))
                .receivers(receivers(json))
                .replyTo(aid(json, "replyTo"))
                .content(string(json, "content"))
                .language(string(json, "language"))
                .encoding(string(json, "encoding"))
                .ontology(string(json, "ontology"))
                .protocol(string(json, "protocol"))
                .conversationId(string(json, "conversationId"))
                .replyWith(string(json, "replyWith"))
                .inReplyTo(string(json, "inReplyTo"))
                .replyBy(instant(json, "replyBy"))
                .userProperties(userProperties(json))
                .build();
    }

    private static void addIfPresent(JsonObjectBuilder json, String field, Object value) {
        if (value != null) {
            json.add(field, value.toString());
        }
    }

    private static String string(JsonObject json, String field) {
        JsonValue value = json.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new MalformedMessageException("message field '" + field + "' must be a string, got " + value);
        }
        return ((JsonString) value).getString();
    }

    private static AID aid(JsonObject json, String field) {
        String text = string(json, field);
        return text == null ? null : parseAid(text, field);
    }

    private static AID parseAid(String text, String field) {
        try {
            return AID.parse(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("message field '" + field + "': " + e.getMessage());
        }
    }

    private static List<AID> receivers(JsonObject json) {
        JsonValue value = json.get("receivers");
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return List.of();
        }
        if (value.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new MalformedMessageException("message field 'receivers' must be an array of AIDs, got " + value);
        }
        List<AID> receivers = new ArrayList<>();
        for (JsonValue item : (JsonArray) value) {
            if (item.getValueType() != JsonValue.ValueType.STRING) {
                throw new MalformedMessageException("message field 'receivers' must hold AID strings, got " + item);
            }
            receivers.add(parseAid(((JsonString) item).getString(), "receivers"));
        }
        return receivers;
    }

    private static Instant instant(JsonObject json, String field) {
        String text = string(json, field);
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new MalformedMessageException(
                    "message field '" + field + "' must be an ISO-8601 instant such as 2026-01-31T12:00:00Z, got '" + text + "'");
        }
    }

    private static Map<String, String> userProperties(JsonObject json) {
        JsonValue value = json.get("userProperties");
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return Map.of();
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new MalformedMessageException("message field 'userProperties' must be an object of strings, got " + value);
        }
        Map<String, String> props = new TreeMap<>();
        value.asJsonObject().forEach((key, item) -> {
            if (item.getValueType() != JsonValue.ValueType.STRING) {
                throw new MalformedMessageException("user property '" + key + "' must be a string, got " + item);
            }
            props.put(key, ((JsonString) item).getString());
        });
        return props;
    }
}
