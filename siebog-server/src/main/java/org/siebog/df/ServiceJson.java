package org.siebog.df;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.siebog.api.AID;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.ServiceDescription;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;

/**
 * The JSON form of services, templates and entries: what the directory's cache stores, what
 * {@code GET /api/services} answers and what the FIPA agent {@code df@<platform>} reads and writes.
 *
 * <pre>
 * service:  {"type": "book-selling", "name": "books", "protocols": ["fipa-contract-net"], "ontologies": [],
 *            "languages": [], "properties": {"currency": "EUR"}}
 * template: the same, every field optional
 * entry:    {"agent": "seller@siebog", "service": {...}, "expires": "2026-11-26T20:00:00Z"}  (no "expires": no lease)
 * </pre>
 *
 * Reading checks the limits of {@link ServiceLimits}: what is over them, or of the wrong type, is a
 * 400 naming the field.
 */
public final class ServiceJson {

    private static final JsonProvider JSON = JsonProvider.provider();

    private ServiceJson() {
    }

    public static JsonObject entry(ServiceEntry entry) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("agent", entry.agent().toString())
                .add("service", service(entry.service()));
        if (entry.expires() != null) {
            json.add("expires", entry.expires().toString());
        }
        return json.build();
    }

    public static JsonObject service(ServiceDescription service) {
        return fields(JSON.createObjectBuilder().add("type", service.type()).add("name", service.name()),
                service.protocols(), service.ontologies(), service.languages(), service.properties());
    }

    public static JsonObject template(ServiceTemplate template) {
        JsonObjectBuilder json = JSON.createObjectBuilder();
        if (template.type() != null) {
            json.add("type", template.type());
        }
        if (template.name() != null) {
            json.add("name", template.name());
        }
        return fields(json, template.protocols(), template.ontologies(), template.languages(), template.properties());
    }

    /** An entry as the cache stores it (written by this class, so trusted). */
    static ServiceEntry readEntry(JsonObject json) {
        String expires = json.getString("expires", null);
        return new ServiceEntry(AID.parse(json.getString("agent")), readService(json.getJsonObject("service")),
                expires == null ? null : Instant.parse(expires));
    }

    /** A service a caller sent: type and name required, every field within its limit. */
    public static ServiceDescription readService(JsonObject json) {
        ServiceLimits.checkFields(json.keySet(), "a service");
        String type = text(json, "type");
        String name = text(json, "name");
        if (type == null || name == null) {
            throw new InvalidAgentRequestException("a service needs a \"type\" and a \"name\"");
        }
        ServiceDescription service = new ServiceDescription(type, name, list(json, "protocols"), list(json, "ontologies"),
                list(json, "languages"), properties(json));
        ServiceLimits.check(service);
        return service;
    }

    /** A template a caller sent: every field optional. */
    public static ServiceTemplate readTemplate(JsonObject json) {
        ServiceLimits.checkFields(json.keySet(), "a template");
        ServiceTemplate template = new ServiceTemplate(text(json, "type"), text(json, "name"), list(json, "protocols"),
                list(json, "ontologies"), list(json, "languages"), properties(json));
        ServiceLimits.check(template);
        return template;
    }

    /** An entry a caller sent back as a search cursor. */
    public static ServiceEntry readCursor(JsonObject json) {
        try {
            return readEntry(json);
        } catch (ClassCastException | NullPointerException | IllegalArgumentException | DateTimeParseException e) {
            throw new InvalidAgentRequestException("\"after\" must be an entry of the previous page: " + e.getMessage());
        }
    }

    private static JsonObject fields(JsonObjectBuilder json, Set<String> protocols, Set<String> ontologies, Set<String> languages,
            Map<String, String> properties) {
        return json.add("protocols", JSON.createArrayBuilder(protocols))
                .add("ontologies", JSON.createArrayBuilder(ontologies))
                .add("languages", JSON.createArrayBuilder(languages))
                .add("properties", JSON.createObjectBuilder(Map.copyOf(properties)))
                .build();
    }

    private static String text(JsonObject json, String field) {
        JsonValue value = json.get(field);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString string)) {
            throw new InvalidAgentRequestException("\"" + field + "\" must be a string");
        }
        return string.getString();
    }

    private static Set<String> list(JsonObject json, String field) {
        JsonValue value = json.get(field);
        if (value == null || value == JsonValue.NULL) {
            return Set.of();
        }
        if (!(value instanceof JsonArray array)) {
            throw new InvalidAgentRequestException("\"" + field + "\" must be an array of strings");
        }
        ServiceLimits.checkCount(field, array.size(), ServiceLimits.MAX_LIST);
        Set<String> values = new TreeSet<>();
        for (JsonValue element : array) {
            if (!(element instanceof JsonString string)) {
                throw new InvalidAgentRequestException("\"" + field + "\" must be an array of strings");
            }
            values.add(string.getString());
        }
        return values;
    }

    private static SortedMap<String, String> properties(JsonObject json) {
        JsonValue value = json.get("properties");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonObject object)) {
            throw new InvalidAgentRequestException("\"properties\" must be an object of strings");
        }
        ServiceLimits.checkCount("properties", object.size(), ServiceLimits.MAX_PROPERTIES);
        SortedMap<String, String> properties = new TreeMap<>();
        object.forEach((key, property) -> {
            if (!(property instanceof JsonString string)) {
                throw new InvalidAgentRequestException("property \"" + key + "\" must be a string");
            }
            properties.put(key, string.getString());
        });
        return properties;
    }
}
