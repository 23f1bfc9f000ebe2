package org.siebog.perf.senderreceiver.jade;

import java.util.ArrayList;
import java.util.List;

import jade.core.Profile;
import jade.wrapper.AgentContainer;

import org.siebog.perf.senderreceiver.RunStatusJson;

/**
 * JVM A of the two-container JADE run ({@link JadeTwoContainerRun}): the platform's main container,
 * on the loopback at its own port, holding the Receivers {@code receiver-0 … receiver-(N-1)}.
 * Prints {@code {"state":"ready"}} once they are all up, then serves until its stdin closes (the
 * benchmark is done, or gone), when it ends with status 0. A Receiver that fails ends it at once
 * with a failed {@link RunStatusJson} line and status 1.
 */
public final class JadeReceiverContainer {

    /** @param localPort the main container's port (its RMI registry), which JVM B joins */
    record Args(int localPort, int pairs) {

        List<String> toArgs() {
            return List.of(Integer.toString(localPort), Integer.toString(pairs));
        }

        static Args fromArgs(String... args) {
            if (args.length != 2) {
                throw new IllegalArgumentException("expected localPort pairs, got " + List.of(args));
            }
            return new Args(Integer.parseInt(args[0]), Integer.parseInt(args[1]));
        }
    }

    private JadeReceiverContainer() {
    }

    public static void main(String[] args) {
        JadeChild.endWhenStdinCloses(0);
        JadeChild.reportAndExit(() -> {
            Args parsed = Args.fromArgs(args);
            Profile profile = JadeChild.profile(parsed.localPort());
            profile.setParameter(Profile.MAIN, "true");
            AgentContainer container = JadeChild.runtime().createMainContainer(profile);
            if (container == null) {
                throw new IllegalStateException("JADE could not start the main container at port "
                        + parsed.localPort() + " (see its log on stderr)");
            }
            RunOutcome outcome = new RunOutcome();
            for (String name : receiverNames(parsed.pairs())) {
                container.createNewAgent(name, JadeReceiver.class.getName(), new Object[] {outcome}).start();
            }
            JadeChild.printReady();
            // Only a failure ends the wait: the Receivers have no result of their own.
            return outcome.await();
        });
    }

    /** The Receivers' local names, which {@link JadeRun} addresses from the other container. */
    static List<String> receiverNames(int pairs) {
        List<String> names = new ArrayList<>(pairs);
        for (int i = 0; i < pairs; i++) {
            names.add(JadeRun.receiverName(i));
        }
        return names;
    }
}
