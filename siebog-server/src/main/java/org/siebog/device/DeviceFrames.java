package org.siebog.device;

import java.util.Map;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;

import org.siebog.agent.AID;

/** The frames the server sends (docs/device-protocol.md, "Server → device"). */
final class DeviceFrames {

    static final JsonProvider JSON = JsonProvider.provider();

    private DeviceFrames() {
    }

    static String welcome(String device, String platform, long heartbeatMs, int maxFrameBytes) {
        return op("welcome").add("device", device).add("platform", platform).add("heartbeatMs", heartbeatMs)
                .add("maxFrameBytes", maxFrameBytes).build().toString();
    }

    static String heartbeat() {
        return "{\"op\":\"heartbeat\"}";
    }

    static String start(AID aid, String agentClass, String module, Map<String, String> args) {
        JsonObjectBuilder argsJson = JSON.createObjectBuilder();
        args.forEach(argsJson::add);
        return op("start").add("aid", aid.toString()).add("agentClass", agentClass).add("module", module)
                .add("args", argsJson).build().toString();
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

    /** {@code ref} is null when the failed frame had none. */
    static String error(Long ref, int status, String error) {
        JsonObjectBuilder frame = op("error").add("status", status).add("error", error);
        if (ref != null) {
            frame.add("ref", ref);
        }
        return frame.build().toString();
    }

    private static JsonObjectBuilder op(String op) {
        return JSON.createObjectBuilder().add("op", op);
    }
}
