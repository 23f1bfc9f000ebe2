package org.siebog.perf.senderreceiver.pekko;

import java.util.List;

import org.siebog.perf.senderreceiver.child.ChildRuns;

/**
 * Apache Pekko's classic actors, with their defaults: on one node, one actor system in one JVM
 * ({@link PekkoSenderReceiver}); on two, the Receivers in one actor system ({@link PekkoReceiverSystem})
 * and the Senders in another ({@link PekkoSenderSystem}), over Artery TCP. Nothing is durable: a
 * message is in memory only, where Siebog's admitted messages survive a node's death.
 */
public final class PekkoJvms {

    public static final ChildRuns.Mains MAINS = new ChildRuns.Mains(PekkoChild.NAME, List.of(),
            PekkoSenderReceiver.class, PekkoReceiverSystem.class, PekkoSenderSystem.class);

    private PekkoJvms() {
    }
}
