package org.siebog.perf.senderreceiver.jade;

import java.util.ArrayList;
import java.util.List;

import jade.core.Profile;
import jade.wrapper.AgentContainer;

import org.siebog.perf.senderreceiver.RunParameters;
import org.siebog.perf.senderreceiver.RunStatusJson;

/**
 * JVM B of the two-container JADE run ({@link JadeTwoContainerRun}): a peripheral container,
 * {@value #CONTAINER_NAME}, that joins the main container of JVM A ({@link JadeReceiverContainer})
 * and holds the coordinator and the Senders; every Sender's Receiver is in JVM A, so each REQUEST
 * and each INFORM crosses JVMs through JADE's RMI IMTP. Prints one {@link RunStatusJson} line on
 * stdout and exits (0 finished, 1 failed; 1 at once when its stdin closes).
 */
public final class JadeSenderContainer {

    static final String CONTAINER_NAME = "senders";

    /**
     * @param mainPort  JVM A's main container
     * @param localPort this container's own port (JADE would otherwise try 1099 too)
     */
    record Args(int mainPort, int localPort, RunParameters parameters) {

        List<String> toArgs() {
            List<String> args = new ArrayList<>(List.of(Integer.toString(mainPort), Integer.toString(localPort)));
            args.addAll(parameters.toArgs());
            return args;
        }

        static Args fromArgs(String... args) {
            if (args.length < 2) {
                throw new IllegalArgumentException("expected mainPort localPort and the run parameters, got " + List.of(args));
            }
            return new Args(Integer.parseInt(args[0]), Integer.parseInt(args[1]),
                    RunParameters.fromArgs(List.of(args).subList(2, args.length).toArray(String[]::new)));
        }
    }

    private JadeSenderContainer() {
    }

    public static void main(String[] args) {
        JadeChild.endWhenStdinCloses(1);
        JadeChild.reportAndExit(() -> {
            Args parsed = Args.fromArgs(args);
            Profile profile = JadeChild.profile(parsed.localPort());
            profile.setParameter(Profile.MAIN, "false");
            profile.setParameter(Profile.MAIN_HOST, JadeChild.LOOPBACK);
            profile.setParameter(Profile.MAIN_PORT, Integer.toString(parsed.mainPort()));
            profile.setParameter(Profile.CONTAINER_NAME, CONTAINER_NAME);
            AgentContainer container = JadeChild.runtime().createAgentContainer(profile);
            if (container == null) {
                throw new IllegalStateException("JADE could not join the main container at " + JadeChild.LOOPBACK
                        + ":" + parsed.mainPort() + " (see its log on stderr)");
            }
            RunOutcome outcome = new RunOutcome();
            container.createNewAgent("sender-receiver-run", JadeRun.class.getName(),
                    new Object[] {outcome, parsed.parameters(), JadeRun.Receivers.ELSEWHERE}).start();
            return outcome.await();
        });
    }
}
