package org.siebog.api;

import java.io.Serializable;

/**
 * How a node is doing, as it measured itself when asked: the figures an admin watches (the console's
 * Cluster view, {@code GET /siebog/api/nodes}). Rates are over the last few seconds; everything else
 * is the value at that moment. The node's Prometheus meters have the same figures and more
 * (docs/admin.md, "Metrics").
 *
 * @param heapUsedBytes        the JVM heap in use
 * @param heapMaxBytes         the most the heap may grow to
 * @param cpuLoad              the node's process CPU use, from 0 (idle) to 1 (every core busy); -1 when the JVM cannot tell
 * @param devices              browser devices joined to the node
 * @param admittedPerSecond    messages let into the mailboxes of its agents, per second
 * @param deliveredPerSecond   messages its agents handled, per second
 * @param mailboxBacklog       messages admitted and not yet handled, in all its mailboxes
 * @param replicationLagBytes  messages admitted to its stateful agents and not yet in the replicated inbox log (estimated bytes)
 * @param uptimeMillis         how long the node's JVM has run
 */
public record NodeHealth(long heapUsedBytes, long heapMaxBytes, double cpuLoad, int devices, double admittedPerSecond,
        double deliveredPerSecond, long mailboxBacklog, long replicationLagBytes, long uptimeMillis) implements Serializable {
}
