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
 */
public record Device(String id, String node, double computeUnits, String label) {

    private static final JsonProvider JSON = JsonProvider.provider();

    public Device withComputeUnits(double value) {
        return new Device(id, node, value, label);
    }

    String toJson() {
        return JSON.createObjectBuilder()
                .add("node", node)
                .add("computeUnits", computeUnits)
                .add("label", label)
                .build().toString();
    }

    static Device fromJson(String id, String json) {
        try (JsonReader reader = JSON.createReader(new StringReader(json))) {
            JsonObject o = reader.readObject();
            return new Device(id, o.getString("node"), o.getJsonNumber("computeUnits").doubleValue(), o.getString("label"));
        }
    }
}
