package org.siebog.replication;

/**
 * Where some of an agent's unsaved messages are in the inbox log: in segments of {@code writer}
 * numbered {@code fromSegment} or later, at inbox positions up to {@code lastSeq}. An
 * {@link AgentRecord} names every range that can hold a message it does not cover, so a takeover
 * reads those segments and no others.
 *
 * <p>{@code lastSeq} is {@link Long#MAX_VALUE} for the range of the node that hosts the agent. A
 * range inherited from an earlier host ends at the last position replayed from it: what that host
 * logged past a gap was never replayed, and the new host gives those positions to new messages.
 */
record LogRange(String writer, long fromSegment, long lastSeq) {

    /** The range of the node that hosts the agent: every position it logs from now on. */
    static LogRange open(String writer, long fromSegment) {
        return new LogRange(writer, fromSegment, Long.MAX_VALUE);
    }

    LogRange endingAt(long seq) {
        return new LogRange(writer, fromSegment, Math.min(lastSeq, seq));
    }
}
