package org.siebog.device;

import java.io.StringReader;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.spi.JsonProvider;

/**
 * A joined device as the whole cluster knows it.
 *
 * @param id           its id, unique in the cluster ({@code d-} and 8 hex digits)
 * @param node         the node holding its WebSocket
 * @param computeUnits what its benchmark reported; placement weighs devices by it
 * @param label        what the device calls itself (may be empty), for people reading {@code GET /api/devices}
 * @param skippedUntil when (epoch ms) placement may choose it again after it missed a start deadline; 0 if it never did
 */
record Device(String id, String node, double computeUnits, String label, long skippedUntil) {

    private static final JsonProvider JSON = JsonProvider.provider();

    public Device(String id, String node, double computeUnits, String label) {
        this(id, node, computeUnits, label, 0);
    }

    public Device withComputeUnits(double value) {
        return new Device(id, node, value, label, skippedUntil);
    }

    public Device skippedUntil(long until) {
        return new Device(id, node, computeUnits, label, until);
    }

    /** Whether placement leaves it out at {@code now}: it missed a start deadline within the backoff period. */
    public boolean skipped(long now) {
        return now < skippedUntil;
    }

    String toJson() {
        return JSON.createObjectBuilder()
                .add("node", node)
                .add("computeUnits", computeUnits)
                .add("label", label)
                .add("skippedUntil", skippedUntil)
                .build().toString();
    }

    static Device fromJson(String id, String json) {
        try (JsonReader reader = JSON.createReader(new StringReader(json))) {
            JsonObject o = reader.readObject();
            // A node of the previous version writes no skippedUntil (a rolling upgrade).
            long skippedUntil = o.containsKey("skippedUntil") ? o.getJsonNumber("skippedUntil").longValue() : 0;
            return new Device(id, o.getString("node"), o.getJsonNumber("computeUnits").doubleValue(), o.getString("label"),
                    skippedUntil);
        }
    }
}
