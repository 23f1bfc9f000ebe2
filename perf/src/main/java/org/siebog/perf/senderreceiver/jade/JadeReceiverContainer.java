package org.siebog.perf.senderreceiver.jade;

import jade.core.Profile;
import jade.wrapper.AgentContainer;

import org.siebog.perf.senderreceiver.RunStatusJson;
import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * JVM A of the two-container JADE run ({@link JadeJvms}): the platform's main container,
 * on the loopback at its own port, holding the Receivers of every run ({@link ChildArgs#receiverName}).
 * Prints {@code {"state":"ready"}} once they are all up, then serves until its stdin closes (the
 * benchmark is done, or gone), when it ends with status 0. A Receiver that fails ends it at once
 * with a failed {@link RunStatusJson} line and status 1.
 */
public final class JadeReceiverContainer {

    private JadeReceiverContainer() {
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(0);
        ChildMain.reportAndExit(JadeChild.NAME, () -> {
            ChildArgs.Receivers parsed = ChildArgs.Receivers.fromArgs(args);
            Profile profile = JadeChild.profile(parsed.port());
            profile.setParameter(Profile.MAIN, "true");
            AgentContainer container = JadeChild.runtime().createMainContainer(profile);
            if (container == null) {
                throw new IllegalStateException("JADE could not start the main container at port "
                        + parsed.port() + " (see its log on stderr)");
            }
            RunOutcome outcome = new RunOutcome();
            for (int run = 0; run < parsed.runs(); run++) {
                for (int i = 0; i < parsed.pairs(); i++) {
                    container.createNewAgent(ChildArgs.receiverName(run, i), JadeReceiver.class.getName(), new Object[] {outcome}).start();
                }
            }
            ChildMain.printReady();
            // Only a failure ends the wait: the Receivers have no result of their own.
            return outcome.await();
        });
    }
}
