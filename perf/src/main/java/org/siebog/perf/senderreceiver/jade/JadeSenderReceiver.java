package org.siebog.perf.senderreceiver.jade;

import java.io.IOException;
import java.net.ServerSocket;

import jade.core.Profile;
import jade.core.Runtime;
import jade.wrapper.AgentContainer;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.RunStatusJson;
import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * The JADE side of the benchmark on one node, run by the benchmark in a child JVM: one main
 * container in this JVM, the pairs and the coordinator in it, run as often as {@link ChildArgs.OneJvm}
 * says.
 * Prints one {@link RunStatusJson} line on stdout and exits (0 finished, 1 failed; 1 at once when
 * its stdin closes, i.e. the benchmark is gone).
 */
public final class JadeSenderReceiver {

    private JadeSenderReceiver() {
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(1);
        ChildMain.reportAndExit(JadeChild.NAME, () -> run(ChildArgs.OneJvm.fromArgs(args)));
    }

    private static RunResult run(ChildArgs.OneJvm parsed) throws Exception {
        Runtime runtime = JadeChild.runtime();
        Profile profile = JadeChild.profile(freePort());
        profile.setParameter(Profile.MAIN, "true");
        AgentContainer container = runtime.createMainContainer(profile);
        if (container == null) {
            throw new IllegalStateException("JADE could not start its main container (see its log on stderr)");
        }
        return ChildMain.lastOf(parsed.runs(), run -> {
            RunOutcome outcome = new RunOutcome();
            container.createNewAgent("sender-receiver-run-" + run, JadeRun.class.getName(),
                    new Object[] {outcome, parsed.parameters(), JadeRun.Receivers.HERE, run}).start();
            return outcome.await();
        });
    }

    /** Another JADE (or anything else) may hold the default port 1099. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
