package org.siebog.perf.senderreceiver.child;

import java.util.ArrayList;
import java.util.List;

import org.siebog.perf.senderreceiver.RunParameters;

/** What the benchmark tells a reference's two JVMs on their command lines ({@link ChildRuns#inTwoJvms}). */
public final class ChildArgs {

    private ChildArgs() {
    }

    /**
     * JVM A's.
     *
     * @param port where it listens on the loopback, and JVM B connects
     */
    public record Receivers(int port, int pairs, int primeLimit) {

        public List<String> toArgs() {
            return List.of(Integer.toString(port), Integer.toString(pairs), Integer.toString(primeLimit));
        }

        public static Receivers fromArgs(String... args) {
            if (args.length != 3) {
                throw new IllegalArgumentException("expected port pairs primeLimit, got " + List.of(args));
            }
            return new Receivers(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        }
    }

    /**
     * JVM B's.
     *
     * @param receiversPort JVM A's port
     * @param port          its own (a reference that listens too: JADE's container, Pekko's actor system)
     */
    public record Senders(int receiversPort, int port, RunParameters parameters) {

        public List<String> toArgs() {
            List<String> args = new ArrayList<>(List.of(Integer.toString(receiversPort), Integer.toString(port)));
            args.addAll(parameters.toArgs());
            return args;
        }

        public static Senders fromArgs(String... args) {
            if (args.length < 2) {
                throw new IllegalArgumentException("expected receiversPort port and the run parameters, got " + List.of(args));
            }
            return new Senders(Integer.parseInt(args[0]), Integer.parseInt(args[1]),
                    RunParameters.fromArgs(List.of(args).subList(2, args.length).toArray(String[]::new)));
        }
    }

    /** The name of pair {@code i}'s Receiver, the same on every side and in every reference. */
    public static String receiverName(int i) {
        return "receiver-" + i;
    }
}
