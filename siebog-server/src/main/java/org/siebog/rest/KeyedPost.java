package org.siebog.rest;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.message.ACLMessageJson;
import org.siebog.message.MessageId;

/**
 * What the first post under an {@link IdempotencyKey} stored, cluster-wide, for the posts under it
 * after: a digest of its message, to tell a repeat from another message under the same key, and
 * the identity each receiver got, for a repeat to go under.
 *
 * @param digest SHA-256 of the message, in hex ({@link #digestOf})
 * @param ids    each receiver's message identity, in the message's order of receivers
 */
record KeyedPost(String digest, Map<AID, MessageId> ids) {

    /** Looked up once: {@code Json.createXxx} searches the service loader on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();

    KeyedPost {
        ids = Collections.unmodifiableMap(new LinkedHashMap<>(ids));
    }

    /**
     * The message in the contract's JSON form, hashed: what it says, not how the client spelt it, so
     * a repeat that orders its fields or spaces its JSON otherwise (or names a receiver twice) is the
     * same message, and one that differs in any field is another.
     */
    static String digestOf(ACLMessage message) {
        try {
            byte[] json = ACLMessageJson.write(message).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The cache holds strings ({@code StringCaches}): no marshalling schema to keep in step with WildFly's. */
    String toJson() {
        JsonObjectBuilder receivers = JSON.createObjectBuilder();
        ids.forEach((receiver, id) -> receivers.add(receiver.toString(),
                JSON.createObjectBuilder().add("origin", id.origin()).add("counter", id.counter())));
        return JSON.createObjectBuilder().add("digest", digest).add("ids", receivers).build().toString();
    }

    static KeyedPost fromJson(String json) {
        try (JsonReader reader = JSON.createReader(new StringReader(json))) {
            JsonObject stored = reader.readObject();
            Map<AID, MessageId> ids = new LinkedHashMap<>();
            for (Map.Entry<String, JsonValue> e : stored.getJsonObject("ids").entrySet()) {
                JsonObject id = e.getValue().asJsonObject();
                ids.put(AID.parse(e.getKey()), new MessageId(id.getString("origin"), id.getJsonNumber("counter").longValueExact()));
            }
            return new KeyedPost(stored.getString("digest"), ids);
        }
    }
}
