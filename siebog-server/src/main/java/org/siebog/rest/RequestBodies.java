package org.siebog.rest;

import java.util.Arrays;
import java.util.List;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.siebog.api.AID;
import org.siebog.api.InvalidAgentRequestException;

/** Checks on request bodies and path parameters that end in a 400 naming the culprit. */
final class RequestBodies {

    private RequestBodies() {
    }

    static void requireObject(JsonObject body) {
        if (body == null) {
            throw new InvalidAgentRequestException("the request needs a JSON object body");
        }
    }

    static void allowOnly(JsonObject body, String... fields) {
        List<String> allowed = Arrays.asList(fields);
        for (String key : body.keySet()) {
            if (!allowed.contains(key)) {
                throw new InvalidAgentRequestException("unknown field '" + key + "'; expected " + allowed);
            }
        }
    }

    static String requiredString(JsonObject body, String field) {
        JsonValue value = body.get(field);
        if (value == null || value.getValueType() != JsonValue.ValueType.STRING) {
            throw new InvalidAgentRequestException("'" + field + "' is required and must be a string");
        }
        return ((JsonString) value).getString();
    }

    static AID aid(String text) {
        try {
            return AID.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidAgentRequestException("bad AID '" + text + "': " + e.getMessage());
        }
    }
}
