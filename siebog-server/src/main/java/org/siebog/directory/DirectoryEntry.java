package org.siebog.directory;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentKind;

/**
 * What the directory keeps for an agent: enough for any node to route to it, and to start it again
 * elsewhere.
 *
 * @param node   the node hosting it (for a balanced stateless agent: the node it was started on)
 * @param pinned for a stateless agent: handled only on {@code node} instead of balanced per message
 * @param args   its start arguments
 * @param device for a client agent: the device running it, or null while it is being started again
 *               elsewhere; {@code node} then holds its proxy (see {@code org.siebog.device})
 */
public record DirectoryEntry(AID aid, String agentClass, AgentKind kind, String node, boolean pinned,
        Map<String, String> args, String device) {

    /** Looked up once: {@code Json.createXxx} searches the service loader on every call, which showed up hot in profiles. */
    private static final JsonProvider JSON = JsonProvider.provider();

    public DirectoryEntry {
        args = Map.copyOf(args);
    }

    /** A server agent: no device. */
    public DirectoryEntry(AID aid, String agentClass, AgentKind kind, String node, boolean pinned, Map<String, String> args) {
        this(aid, agentClass, kind, node, pinned, args, null);
    }

    /** A stateless agent that any node may handle, chosen per message. */
    public boolean balanced() {
        return kind == AgentKind.STATELESS && !pinned;
    }

    /** Its location is its device for a client agent (the node, while it has none), else its node. */
    public AgentInfo info() {
        return new AgentInfo(aid, agentClass, device != null ? device : node);
    }

    public DirectoryEntry movedTo(String newNode) {
        return new DirectoryEntry(aid, agentClass, kind, newNode, pinned, args, device);
    }

    public DirectoryEntry onDevice(String newDevice) {
        return new DirectoryEntry(aid, agentClass, kind, node, pinned, args, newDevice);
    }

    /** The cache holds strings: no marshalling schema to keep in step with WildFly's ProtoStream. */
    String toJson() {
        JsonObjectBuilder argsJson = JSON.createObjectBuilder();
        args.forEach(argsJson::add);
        return JSON.createObjectBuilder()
                .add("agentClass", agentClass)
                .add("kind", kind.name())
                .add("node", node)
                .add("pinned", pinned)
                .add("args", argsJson)
                .add("device", device == null ? JsonValue.NULL : JSON.createValue(device))
                .build().toString();
    }

    static DirectoryEntry fromJson(AID aid, String json) {
        try (JsonReader reader = JSON.createReader(new StringReader(json))) {
            JsonObject o = reader.readObject();
            Map<String, String> args = new LinkedHashMap<>();
            o.getJsonObject("args").forEach((k, v) -> args.put(k, ((JsonString) v).getString()));
            return new DirectoryEntry(aid, o.getString("agentClass"), AgentKind.valueOf(o.getString("kind")),
                    o.getString("node"), o.getBoolean("pinned"), args, o.getString("device", null));
        }
    }
}
