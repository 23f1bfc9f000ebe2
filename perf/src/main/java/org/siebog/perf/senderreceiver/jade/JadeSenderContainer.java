package org.siebog.perf.senderreceiver.jade;

import jade.core.Profile;
import jade.wrapper.AgentContainer;

import org.siebog.perf.senderreceiver.RunStatusJson;
import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * JVM B of the two-container JADE run ({@link JadeJvms}): a peripheral container,
 * {@value #CONTAINER_NAME}, that joins the main container of JVM A ({@link JadeReceiverContainer})
 * and holds the coordinator and the Senders; every Sender's Receiver is in JVM A, so each REQUEST
 * and each INFORM crosses JVMs through JADE's RMI IMTP. Prints one {@link RunStatusJson} line on
 * stdout and exits (0 finished, 1 failed; 1 at once when its stdin closes).
 */
public final class JadeSenderContainer {

    static final String CONTAINER_NAME = "senders";

    private JadeSenderContainer() {
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(1);
        ChildMain.reportAndExit(JadeChild.NAME, () -> {
            ChildArgs.Senders parsed = ChildArgs.Senders.fromArgs(args);
            Profile profile = JadeChild.profile(parsed.port());
            profile.setParameter(Profile.MAIN, "false");
            profile.setParameter(Profile.MAIN_HOST, ChildMain.LOOPBACK);
            profile.setParameter(Profile.MAIN_PORT, Integer.toString(parsed.receiversPort()));
            profile.setParameter(Profile.CONTAINER_NAME, CONTAINER_NAME);
            AgentContainer container = JadeChild.runtime().createAgentContainer(profile);
            if (container == null) {
                throw new IllegalStateException("JADE could not join the main container at " + ChildMain.LOOPBACK
                        + ":" + parsed.receiversPort() + " (see its log on stderr)");
            }
            return ChildMain.lastOf(parsed.runs(), run -> {
                RunOutcome outcome = new RunOutcome();
                container.createNewAgent("sender-receiver-run-" + run, JadeRun.class.getName(),
                        new Object[] {outcome, parsed.parameters(), JadeRun.Receivers.ELSEWHERE, run}).start();
                return outcome.await();
            });
        });
    }
}
