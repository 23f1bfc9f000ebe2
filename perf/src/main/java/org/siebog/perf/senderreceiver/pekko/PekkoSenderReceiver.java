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
 * Senders and the coordinator in it. Arguments: {@link RunParameters#toArgs()}. Prints one
 * {@link RunStatusJson} line on stdout and exits (0 finished, 1 failed; 1 at once when its stdin closes).
 */
public final class PekkoSenderReceiver {

    private PekkoSenderReceiver() {
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(1);
        ChildMain.reportAndExit(PekkoChild.NAME, () -> {
            RunParameters parameters = RunParameters.fromArgs(args);
            ActorSystem system = PekkoChild.local("sender-receiver");
            List<ActorRef> receivers = new ArrayList<>(parameters.pairs());
            for (int i = 0; i < parameters.pairs(); i++) {
                receivers.add(system.actorOf(PekkoReceiver.props(parameters.primeLimit()), ChildArgs.receiverName(i)));
            }
            return PekkoRun.run(system, parameters, receivers);
        });
    }
}
