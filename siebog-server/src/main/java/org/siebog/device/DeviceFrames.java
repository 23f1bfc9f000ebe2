package org.siebog.device;

import java.util.Map;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;

import org.siebog.agent.AID;
import org.siebog.state.SavedState;

/** The frames the server sends (docs/device-protocol.md, "Server → device"). */
final class DeviceFrames {

    static final JsonProvider JSON = JsonProvider.provider();

    private DeviceFrames() {
    }

    static String welcome(String device, String platform, long heartbeatMs, int maxFrameBytes, int maxStateBytes,
            int maxPendingState) {
        return op("welcome").add("device", device).add("platform", platform).add("heartbeatMs", heartbeatMs)
                .add("maxFrameBytes", maxFrameBytes).add("maxStateBytes", maxStateBytes)
                .add("maxPendingState", maxPendingState).build().toString();
    }

    static String heartbeat() {
        return "{\"op\":\"heartbeat\"}";
    }

    static String start(AID aid, String agentClass, String module, Map<String, String> args, SavedState saved) {
        JsonObjectBuilder argsJson = JSON.createObjectBuilder();
        args.forEach(argsJson::add);
        String frame = op("start").add("aid", aid.toString()).add("agentClass", agentClass).add("module", module)
                .add("args", argsJson).add("version", saved.version()).build().toString();
        return withState(frame, saved.state());
    }

    static String stateSaved(long ref, AID aid, long version) {
        return op("stateSaved").add("ref", ref).add("aid", aid.toString()).add("version", version).build().toString();
    }

    static String state(long ref, AID aid, SavedState saved) {
        return withState(op("state").add("ref", ref).add("aid", aid.toString()).add("version", saved.version()).build()
                .toString(), saved.state());
    }

    /**
     * Appends {@code "state": <json>} to a frame. The stored text is JSON that the server itself
     * wrote from a parsed frame, so it goes in as it is, without parsing it again (reads are 10% of
     * a write-heavy load and a state may be 64 KiB).
     */
    private static String withState(String frame, String stateJson) {
        return frame.substring(0, frame.length() - 1) + ",\"state\":" + (stateJson == null ? "null" : stateJson) + "}";
    }

    static String stop(AID aid) {
        return op("stop").add("aid", aid.toString()).build().toString();
    }

    static String deliver(AID aid, long seq, JsonObject message) {
        return op("deliver").add("aid", aid.toString()).add("seq", seq).add("message", message).build().toString();
    }

    static String sent(long ref) {
        return op("sent").add("ref", ref).build().toString();
    }

    static String spawned(long ref, String aid, String location) {
        return op("spawned").add("ref", ref).add("aid", aid).add("location", location).build().toString();
    }

    static String agentStopped(long ref, String aid) {
        return op("agentStopped").add("ref", ref).add("aid", aid).build().toString();
    }

    /**
     * {@code ref} is null when the failed frame had none; {@code version} is a state refusal's version
     * of the agent's state now, else null.
     */
    static String error(Long ref, int status, String error, Long version) {
        JsonObjectBuilder frame = op("error").add("status", status).add("error", error);
        if (ref != null) {
            frame.add("ref", ref);
        }
        if (version != null) {
            frame.add("version", version);
        }
        return frame.build().toString();
    }

    private static JsonObjectBuilder op(String op) {
        return JSON.createObjectBuilder().add("op", op);
    }
}
