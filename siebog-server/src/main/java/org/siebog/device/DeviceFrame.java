package org.siebog.device;

import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.spi.JsonProvider;

/**
 * One device → server frame, read once by a streaming parser into its top-level fields. A nested
 * value is kept as the JSON text the device wrote, not built into a tree: an agent's state passes
 * through the server untouched, neither parsed nor written out again (under a write-heavy load
 * that round trip was a seventh of a node's CPU). The few nested values the server does read (a
 * message, spawn arguments) are parsed on demand.
 */
final class DeviceFrame {

    private static final JsonFactory JSON = new JsonFactory();
    /** JSON-P, for the nested values the server reads as objects (messages, spawn arguments). */
    private static final JsonProvider OBJECTS = JsonProvider.provider();

    /** A top-level field: its token, where its JSON text is in the frame, and a scalar's value. */
    private record Field(JsonToken token, int start, int end, Object scalar) {
    }

    private final String text;
    private final Map<String, Field> fields;

    private DeviceFrame(String text, Map<String, Field> fields) {
        this.text = text;
        this.fields = fields;
    }

    /**
     * Reads a frame: one JSON object with a string {@code op}, nothing after it.
     *
     * @throws ProtocolViolation (1007) for anything else
     */
    static DeviceFrame parse(String text) {
        Map<String, Field> fields = new HashMap<>(8);
        try (JsonParser parser = JSON.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new ProtocolViolation(1007, "a frame must be a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                int start = (int) parser.currentTokenLocation().getCharOffset();
                Object scalar = switch (token) {
                    case START_OBJECT, START_ARRAY -> {
                        parser.skipChildren();
                        yield null;
                    }
                    case VALUE_STRING -> parser.getText();
                    case VALUE_NUMBER_INT -> parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                            ? parser.getDecimalValue() : parser.getLongValue();
                    case VALUE_NUMBER_FLOAT -> parser.getDecimalValue();
                    case VALUE_TRUE -> Boolean.TRUE;
                    case VALUE_FALSE -> Boolean.FALSE;
                    default -> null;
                };
                fields.put(name, new Field(token, start, (int) parser.currentLocation().getCharOffset(), scalar));
            }
            if (parser.nextToken() != null) {
                throw new ProtocolViolation(1007, "a frame must be one JSON object, with nothing after it");
            }
        } catch (JsonProcessingException e) {
            throw new ProtocolViolation(1007, "a frame must be a JSON object: " + e.getOriginalMessage()
                    + " at character " + (e.getLocation() == null ? "?" : e.getLocation().getCharOffset()));
        } catch (IOException e) {
            throw new IllegalStateException("reading a string cannot fail", e);
        }
        Field op = fields.get("op");
        if (op == null || op.token() != JsonToken.VALUE_STRING) {
            throw new ProtocolViolation(1007, "a frame needs a string 'op'");
        }
        return new DeviceFrame(text, fields);
    }

    String op() {
        return (String) fields.get("op").scalar();
    }

    /** Whether the frame has the field at all, even as {@code null}. */
    boolean has(String field) {
        return fields.containsKey(field);
    }

    /** Whether the field is missing or {@code null}. */
    boolean absent(String field) {
        Field f = fields.get(field);
        return f == null || f.token() == JsonToken.VALUE_NULL;
    }

    /** The field's value if it is a JSON string, else null. */
    String string(String field) {
        Field f = fields.get(field);
        return f != null && f.token() == JsonToken.VALUE_STRING ? (String) f.scalar() : null;
    }

    /** The field's value if it is a JSON boolean, else null. */
    Boolean bool(String field) {
        Field f = fields.get(field);
        return f != null && f.scalar() instanceof Boolean b ? b : null;
    }

    /** The field's value if it is a JSON integer that fits a {@code long}, else null. */
    Long integer(String field) {
        Field f = fields.get(field);
        return f != null && f.scalar() instanceof Long n ? n : null;
    }

    /** The field's value if it is a JSON number, else null. */
    Double number(String field) {
        Field f = fields.get(field);
        return f != null && f.scalar() instanceof Number n ? n.doubleValue() : null;
    }

    /** The field's JSON text exactly as the device wrote it (any kind of value), or null when missing. */
    String json(String field) {
        Field f = fields.get(field);
        return f == null ? null : text.substring(f.start(), f.end());
    }

    /** The field as a JSON-P array if it is an array, else null. */
    JsonArray array(String field) {
        Field f = fields.get(field);
        if (f == null || f.token() != JsonToken.START_ARRAY) {
            return null;
        }
        try (JsonReader reader = OBJECTS.createReader(new StringReader(json(field)))) {
            return reader.readArray();
        } catch (JsonException e) {
            throw new IllegalStateException("an array the streaming parser accepted: " + e.getMessage(), e);
        }
    }

    /** The field as a JSON-P object if it is an object, else null. */
    JsonObject object(String field) {
        Field f = fields.get(field);
        if (f == null || f.token() != JsonToken.START_OBJECT) {
            return null;
        }
        try (JsonReader reader = OBJECTS.createReader(new StringReader(json(field)))) {
            return reader.readObject();
        } catch (JsonException e) {
            throw new IllegalStateException("an object the streaming parser accepted: " + e.getMessage(), e);
        }
    }
}
