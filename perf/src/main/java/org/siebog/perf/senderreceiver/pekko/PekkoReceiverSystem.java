package org.siebog.perf.senderreceiver.pekko;

import org.apache.pekko.actor.ActorSystem;

import org.siebog.perf.senderreceiver.RunStatusJson;
import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * JVM A of the Pekko run on two nodes ({@link PekkoJvms}): the actor system
 * {@value PekkoChild#RECEIVERS} on the loopback at its own port, holding the Receivers. Prints
 * {@code {"state":"ready"}} once they are up, then serves until its stdin closes, when it ends with
 * status 0; if the actor system ends first, it prints a failed {@link RunStatusJson} line and ends with 1.
 */
public final class PekkoReceiverSystem {

    private PekkoReceiverSystem() {
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(0);
        ChildMain.reportAndExit(PekkoChild.NAME, () -> {
            ChildArgs.Receivers parsed = ChildArgs.Receivers.fromArgs(args);
            ActorSystem system = PekkoChild.remote(PekkoChild.RECEIVERS, parsed.port());
            for (int run = 0; run < parsed.runs(); run++) {
                for (int i = 0; i < parsed.pairs(); i++) {
                    system.actorOf(PekkoReceiver.props(parsed.primeLimit()), ChildArgs.receiverName(run, i));
                }
            }
            ChildMain.printReady();
            system.getWhenTerminated().toCompletableFuture().join();
            throw new IllegalStateException("the Receivers' actor system ended");
        });
    }
}
