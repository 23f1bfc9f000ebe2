package org.siebog.message;

import java.io.StringReader;
import java.time.Duration;

import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.siebog.api.InvalidAgentRequestException;

/**
 * Reads the JSON actions that the platform's own FIPA agents ({@code df@<platform>},
 * {@code topics@<platform>}) take as a REQUEST's content, and writes their refusals. What cannot be
 * read is a {@link NotUnderstood} naming the field.
 */
public final class JsonActions {

    private static final JsonProvider JSON = JsonProvider.provider();

    private JsonActions() {
    }

    /** Content that is not the action it should be: answered NOT_UNDERSTOOD (400), nothing done. */
    public static final class NotUnderstood extends InvalidAgentRequestException {
        public NotUnderstood(String message) {
            super(message);
        }
    }

    /** {@code content} as a JSON object; {@code example} shows the caller what one looks like. */
    public static JsonObject parse(String content, String example) {
        if (content == null) {
            throw new NotUnderstood("the content must be a JSON action, e.g. " + example);
        }
        try {
            return JSON.createReader(new StringReader(content)).readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new NotUnderstood("the content is not a JSON object: " + e.getMessage());
        }
    }

    public static JsonObject object(JsonObject action, String field) {
        JsonValue value = action.get(field);
        if (value == null) {
            throw new NotUnderstood("the action needs \"" + field + "\"");
        }
        return asObject(field, value);
    }

    public static JsonObject asObject(String field, JsonValue value) {
        if (!(value instanceof JsonObject object)) {
            throw new NotUnderstood("\"" + field + "\" must be an object");
        }
        return object;
    }

    public static String text(JsonObject action, String field) {
        try {
            return action.getString(field);
        } catch (NullPointerException | ClassCastException e) {
            throw new NotUnderstood("the action needs \"" + field + "\" as a string");
        }
    }

    /** The string {@code field}, or null when it is absent or null. */
    public static String optionalText(JsonObject action, String field) {
        JsonValue value = action.get(field);
        return value == null || value == JsonValue.NULL ? null : text(action, field);
    }

    public static int whole(JsonObject action, String field) {
        if (!(action.get(field) instanceof JsonNumber number) || !number.isIntegral()) {
            throw new NotUnderstood("\"" + field + "\" must be a whole number");
        }
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, number.longValue()));
    }

    /** {@code field} as milliseconds, or null when it is absent or null. */
    public static Duration millis(JsonObject action, String field) {
        JsonValue value = action.get(field);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonNumber number) || !number.isIntegral()) {
            throw new NotUnderstood("\"" + field + "\" must be a whole number of milliseconds");
        }
        return Duration.ofMillis(number.longValue());
    }

    /** A refusal's content: the status and error of the REST API's JSON errors. */
    public static JsonObject failure(int status, String error) {
        return JSON.createObjectBuilder().add("status", status).add("error", error).build();
    }
}
