package org.siebog.perf.senderreceiver.pekko;

import java.util.ArrayList;
import java.util.List;

import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;

import org.siebog.perf.senderreceiver.RunParameters;
import org.siebog.perf.senderreceiver.RunStatusJson;
import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * The Pekko side of the benchmark on one node, in a child JVM: one actor system, the Receivers, the
 * Senders and the coordinator in it, run as often as {@link ChildArgs.OneJvm} says. Prints one
 * {@link RunStatusJson} line on stdout and exits (0 finished, 1 failed; 1 at once when its stdin closes).
 */
public final class PekkoSenderReceiver {

    private PekkoSenderReceiver() {
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(1);
        ChildMain.reportAndExit(PekkoChild.NAME, () -> {
            ChildArgs.OneJvm parsed = ChildArgs.OneJvm.fromArgs(args);
            RunParameters parameters = parsed.parameters();
            ActorSystem system = PekkoChild.local("sender-receiver");
            return ChildMain.lastOf(parsed.runs(), run -> {
                List<ActorRef> receivers = new ArrayList<>(parameters.pairs());
                for (int i = 0; i < parameters.pairs(); i++) {
                    receivers.add(system.actorOf(PekkoReceiver.props(parameters.primeLimit()), ChildArgs.receiverName(run, i)));
                }
                return PekkoRun.run(system, run, parameters, receivers);
            });
        });
    }
}
