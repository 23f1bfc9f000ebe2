package org.siebog.perf.senderreceiver.pekko;

import org.apache.pekko.actor.ActorSystem;

import org.siebog.perf.senderreceiver.RunStatusJson;
import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * JVM B of the Pekko run on two nodes ({@link PekkoJvms}): an actor system of its own, which
 * finds JVM A's Receivers and runs the coordinator and the Senders, so that every request and reply
 * crosses JVMs over Artery TCP. Prints one {@link RunStatusJson} line on stdout and exits (0 finished,
 * 1 failed; 1 at once when its stdin closes).
 */
public final class PekkoSenderSystem {

    private PekkoSenderSystem() {
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(1);
        ChildMain.reportAndExit(PekkoChild.NAME, () -> {
            ChildArgs.Senders parsed = ChildArgs.Senders.fromArgs(args);
            ActorSystem system = PekkoChild.remote("senders", parsed.port());
            return ChildMain.lastOf(parsed.runs(), run -> PekkoRun.run(system, run, parsed.parameters(),
                    PekkoChild.receivers(system, parsed.receiversPort(), run, parsed.parameters().pairs())));
        });
    }
}
