package org.siebog.perf.senderreceiver.jade;

import java.util.List;

import org.siebog.perf.senderreceiver.child.ChildMain;
import org.siebog.perf.senderreceiver.child.ChildRuns;

/**
 * JADE 4.3, the paper's reference: on one node, one main container in one JVM
 * ({@link JadeSenderReceiver}); on two, the Receivers in the main container in JVM A
 * ({@link JadeReceiverContainer}) and the coordinator and the Senders in a second container in JVM B
 * ({@link JadeSenderContainer}), so every REQUEST and INFORM crosses JVMs through JADE's RMI IMTP.
 */
public final class JadeJvms {

    // RMI would otherwise put the machine's own address in its stubs.
    public static final ChildRuns.Mains MAINS = new ChildRuns.Mains(JadeChild.NAME, List.of("-Djava.rmi.server.hostname=" + ChildMain.LOOPBACK),
            JadeSenderReceiver.class, JadeReceiverContainer.class, JadeSenderContainer.class);

    private JadeJvms() {
    }
}
