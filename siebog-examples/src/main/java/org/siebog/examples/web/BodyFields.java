package org.siebog.examples.web;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.siebog.api.InvalidAgentRequestException;

/** Reads the fields of the examples' JSON request bodies; a bad one is a 400 naming it. */
public final class BodyFields {

    private BodyFields() {
    }

    /** {@code field} as a whole number from {@code min} to {@code max}; {@code fallback} when absent. */
    public static long wholeNumber(JsonObject body, String field, long fallback, long min, long max) {
        JsonValue value = body.get(field);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof JsonNumber number) || !number.isIntegral() || number.longValue() < min || number.longValue() > max) {
            throw new InvalidAgentRequestException("'" + field + "' must be a whole number from " + min + " to " + max + ", got " + value);
        }
        return number.longValue();
    }

    /** As {@link #wholeNumber}, for an int range. */
    public static int whole(JsonObject body, String field, int fallback, int min, int max) {
        return (int) wholeNumber(body, field, fallback, min, max);
    }
}
