package org.siebog.device;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import jakarta.json.JsonObject;

import org.siebog.api.AID;
import org.siebog.state.SavedState;

/**
 * The frames the server sends (docs/device-protocol.md, "Server → device"), written by a streaming
 * generator. A state goes in as the JSON text the store holds, which the server itself took
 * unchanged from a device's frame, so it is neither parsed nor escaped again (a state may be 64 KiB).
 */
final class DeviceFrames {

    private static final JsonFactory FRAMES = new JsonFactory();
    /** The longest {@code error} text a frame carries; a value it quotes is cut to {@link #QUOTED_CHARS}. */
    static final int MAX_ERROR_CHARS = 300;
    static final int QUOTED_CHARS = 100;

    /** Writes a frame's fields after its {@code op}. */
    @FunctionalInterface
    private interface Fields {
        void write(JsonGenerator frame) throws IOException;
    }

    private DeviceFrames() {
    }

    static String challenge(String seed, int puzzles, int zeroBits) {
        return frame("challenge", f -> {
            f.writeStringField("seed", seed);
            f.writeNumberField("puzzles", puzzles);
            f.writeNumberField("zeroBits", zeroBits);
        });
    }

    static String welcome(String device, String platform, double computeUnits, long heartbeatMs, int maxFrameBytes,
            int maxStateBytes, int maxPendingState) {
        return frame("welcome", f -> {
            f.writeStringField("device", device);
            f.writeStringField("platform", platform);
            f.writeNumberField("computeUnits", computeUnits);
            f.writeNumberField("heartbeatMs", heartbeatMs);
            f.writeNumberField("maxFrameBytes", maxFrameBytes);
            f.writeNumberField("maxStateBytes", maxStateBytes);
            f.writeNumberField("maxPendingState", maxPendingState);
        });
    }

    static String heartbeat() {
        return "{\"op\":\"heartbeat\"}";
    }

    static String start(AID aid, String agentClass, String module, Map<String, String> args, SavedState saved) {
        return frame("start", f -> {
            f.writeStringField("aid", aid.toString());
            f.writeStringField("agentClass", agentClass);
            f.writeStringField("module", module);
            f.writeObjectFieldStart("args");
            for (Map.Entry<String, String> arg : args.entrySet()) {
                f.writeStringField(arg.getKey(), arg.getValue());
            }
            f.writeEndObject();
            f.writeNumberField("version", saved.version());
            state(f, saved.state());
        });
    }

    static String stateSaved(long ref, AID aid, long version) {
        return frame("stateSaved", f -> {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("version", version);
        });
    }

    static String state(long ref, AID aid, SavedState saved) {
        return frame("state", f -> {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("version", saved.version());
            state(f, saved.state());
        });
    }

    private static void state(JsonGenerator frame, String stateJson) throws IOException {
        frame.writeFieldName("state");
        if (stateJson == null) {
            frame.writeNull();
        } else {
            frame.writeRawValue(stateJson);
        }
    }

    static String stop(AID aid) {
        return frame("stop", f -> f.writeStringField("aid", aid.toString()));
    }

    static String deliver(AID aid, long seq, JsonObject message) {
        return frame("deliver", f -> {
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("seq", seq);
            f.writeFieldName("message");
            f.writeRawValue(message.toString());
        });
    }

    static String sent(long ref) {
        return frame("sent", f -> f.writeNumberField("ref", ref));
    }

    static String spawned(long ref, String aid, String location) {
        return frame("spawned", f -> {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid);
            f.writeStringField("location", location);
        });
    }

    static String agentStopped(long ref, String aid) {
        return frame("agentStopped", f -> {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid);
        });
    }

    /**
     * {@code ref} is null when the failed frame had none; {@code version} is a state refusal's version
     * of the agent's state now, else null.
     */
    static String error(Long ref, int status, String error, Long version) {
        return frame("error", f -> {
            f.writeNumberField("status", status);
            // Refusals name what they refuse (a class, an AID, a field's value): never all of a large one.
            f.writeStringField("error", quote(error, MAX_ERROR_CHARS));
            if (ref != null) {
                f.writeNumberField("ref", ref);
            }
            if (version != null) {
                f.writeNumberField("version", version);
            }
        });
    }

    /**
     * At most {@code max} characters of {@code text}, marked when cut: what a refusal repeats of what
     * it refuses, so that a large refused value does not come back as large (or fill a log).
     */
    static String quote(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "...(" + text.length() + " characters)";
    }

    private static String frame(String op, Fields fields) {
        StringWriter text = new StringWriter(64);
        try (JsonGenerator frame = FRAMES.createGenerator(text)) {
            frame.writeStartObject();
            frame.writeStringField("op", op);
            fields.write(frame);
            frame.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a string cannot fail", e);
        }
        return text.toString();
    }
}
