package org.siebog.perf.senderreceiver.tcp;

import java.util.List;

import org.siebog.perf.senderreceiver.child.ChildRuns;

/**
 * Raw blocking TCP between two JVMs, the floor under any platform's message between nodes: a socket
 * and a thread at each end per pair, Nagle off, each request a length and its bytes, echoed back
 * ({@link TcpReceivers} in JVM A, {@link TcpSenders} in JVM B). No agents, no mailboxes, no
 * serialization, nothing durable.
 */
public final class TcpJvms {

    public static final ChildRuns.Mains MAINS = new ChildRuns.Mains(TcpReceivers.NAME, List.of(), null, TcpReceivers.class, TcpSenders.class);

    private TcpJvms() {
    }
}
