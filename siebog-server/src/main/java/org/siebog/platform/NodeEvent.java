package org.siebog.platform;

import java.util.Map;

/**
 * Something that happened to the cluster, for the people watching it: the console's live events and
 * {@code GET /api/events}. Fired as a CDI event where it happens (a package fires it without knowing
 * who listens; the connection package passes it to the other nodes and to the streams).
 *
 * @param type    what happened
 * @param node    the node that saw it; for {@link Type#NODE_JOINED} and {@link Type#NODE_LEFT}, the node that joined or left
 * @param at      when, in milliseconds since the epoch
 * @param details a few named values, by type (docs/admin.md, "Events"): never a message's content
 */
public record NodeEvent(Type type, String node, long at, Map<String, String> details) {

    /** What can happen; {@link #wire()} is its name on the stream. */
    public enum Type {
        NODE_JOINED("node-joined", false),
        NODE_LEFT("node-left", false),
        FAILOVER("failover", true),
        NODE_REJOINED("node-rejoined", true),
        DEVICE_JOINED("device-joined", true),
        DEVICE_LEFT("device-left", true),
        AGENT_RESTARTED("agent-restarted", true),
        AGENT_MOVED("agent-moved", true);

        private final String wire;
        private final boolean relayed;

        Type(String wire, boolean relayed) {
            this.wire = wire;
            this.relayed = relayed;
        }

        public String wire() {
            return wire;
        }

        /**
         * Whether the node that saw it tells the others: only it saw a device or a restart, and each survivor
         * its own share of a failover; every node sees the view change itself.
         */
        public boolean relayed() {
            return relayed;
        }

        /** The type named {@code wire}, or null. */
        public static Type of(String wire) {
            for (Type t : values()) {
                if (t.wire.equals(wire)) {
                    return t;
                }
            }
            return null;
        }
    }

    public NodeEvent {
        details = Map.copyOf(details);
    }

    /** Happening now, on {@code node}. */
    public static NodeEvent now(Type type, String node, Map<String, String> details) {
        return new NodeEvent(type, node, System.currentTimeMillis(), details);
    }
}
