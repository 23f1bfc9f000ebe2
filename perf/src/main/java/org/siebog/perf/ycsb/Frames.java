package org.siebog.perf.ycsb;

import java.io.StringWriter;
import java.util.function.Consumer;

import jakarta.json.JsonObject;
import jakarta.json.stream.JsonGenerator;

/**
 * The device frames a simulated device writes (docs/device-protocol.md), in the canonical form of
 * siebog-client-js/test/fixtures/device-frames.json: the fields in the order the server writes them,
 * so that {@code FramesTest} can hold each one to the fixture's example byte for byte. The server's
 * own definition (siebog-server's {@code DeviceFrames}) needs Jakarta EE, which this tool does not
 * ship; the fixtures keep the two in step.
 */
final class Frames {

    /** The frame the server answers without parsing when a joined device sends it exactly so. */
    static final String HEARTBEAT = "{\"op\":\"heartbeat\"}";

    private Frames() {
    }

    /** {@code join} with a claim of compute units (the node trusts claims: a test deployment) and a label. */
    static String join(int computeUnits, String label) {
        return frame("join", f -> f.write("computeUnits", computeUnits).write("label", label));
    }

    static String started(String aid) {
        return frame("started", f -> f.write("aid", aid));
    }

    static String stopped(String aid) {
        return frame("stopped", f -> f.write("aid", aid));
    }

    static String ack(String aid, long seq) {
        return frame("ack", f -> f.write("aid", aid).write("seq", seq));
    }

    /** The {@code ack} of a {@code deliver} frame: its agent has handled it. */
    static String ackOf(JsonObject deliver) {
        return ack(deliver.getString("aid"), deliver.getJsonNumber("seq").longValue());
    }

    /** {@code spawn} of an agent on this device ({@code device}), with no start arguments. */
    static String spawn(String agentClass, String name, String device, long ref) {
        return frame("spawn", f -> f.write("agentClass", agentClass).write("name", name).writeStartObject("args").writeEnd()
                .write("device", device).write("ref", ref));
    }

    /** {@code saveState}: {@code state} writes the field {@code state} (any JSON value). */
    static String saveState(String aid, long version, Consumer<JsonGenerator> state, long ref) {
        return frame("saveState", f -> {
            f.write("aid", aid).write("version", version);
            state.accept(f);
            f.write("ref", ref);
        });
    }

    static String loadState(String aid, long ref) {
        return frame("loadState", f -> f.write("aid", aid).write("ref", ref));
    }

    static String stopAgent(String aid, long ref) {
        return frame("stopAgent", f -> f.write("aid", aid).write("ref", ref));
    }

    private static String frame(String op, Consumer<JsonGenerator> fields) {
        StringWriter text = new StringWriter(128);
        try (JsonGenerator frame = RecordJson.JSON.createGenerator(text)) {
            frame.writeStartObject().write("op", op);
            fields.accept(frame);
            frame.writeEnd();
        }
        return text.toString();
    }
}
