package org.siebog.perf.ycsb;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.Map;
import java.util.Set;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonGenerator;

import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;

/**
 * A YCSB record as an agent's state: a JSON object of its fields (strings). Both bindings store the
 * same text, so Cassandra sees the same bytes whichever way they come.
 */
final class RecordJson {

    /** Looked up once: {@code Json.createReader} searches for the provider on every call. */
    static final JsonProvider JSON = JsonProvider.provider();

    private RecordJson() {
    }

    /** Writes the fields into {@code generator} as one JSON object, as the value of {@code name} (or top level if null). */
    static void write(JsonGenerator generator, String name, Map<String, ByteIterator> fields) {
        if (name == null) {
            generator.writeStartObject();
        } else {
            generator.writeStartObject(name);
        }
        // ByteIterator.toString() consumes the iterator: each field is read exactly once.
        fields.forEach((field, value) -> generator.write(field, value.toString()));
        generator.writeEnd();
    }

    static String toJson(Map<String, ByteIterator> fields) {
        StringWriter text = new StringWriter(fields.size() * 120);
        try (JsonGenerator generator = JSON.createGenerator(text)) {
            write(generator, null, fields);
        }
        return text.toString();
    }

    static JsonObject parse(String text) {
        try (var reader = JSON.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /** Copies the wanted fields (all when {@code wanted} is null) of a stored state into YCSB's result map. */
    static void readInto(JsonValue state, Set<String> wanted, Map<String, ByteIterator> result) {
        if (result == null || !(state instanceof JsonObject object)) {
            return;
        }
        object.forEach((field, value) -> {
            if ((wanted == null || wanted.contains(field)) && value instanceof JsonString text) {
                result.put(field, new StringByteIterator(text.getString()));
            }
        });
    }
}
