package org.siebog.perf.senderreceiver.child;

import java.util.ArrayList;
import java.util.List;

import org.siebog.perf.senderreceiver.RunParameters;

/** What the benchmark tells a reference's two JVMs on their command lines ({@link ChildRuns#inTwoJvms}). */
public final class ChildArgs {

    private ChildArgs() {
    }

    /**
     * The JVM of a run on one node.
     *
     * @param runs how often it runs the method, one run after the other in the same JVM, the last one
     *             measured: the earlier ones warm its JIT up, as a running node's is
     */
    public record OneJvm(int runs, RunParameters parameters) {

        public List<String> toArgs() {
            List<String> args = new ArrayList<>(List.of(Integer.toString(runs)));
            args.addAll(parameters.toArgs());
            return args;
        }

        public static OneJvm fromArgs(String... args) {
            if (args.length < 1) {
                throw new IllegalArgumentException("expected runs and the run parameters, got " + List.of(args));
            }
            return new OneJvm(Integer.parseInt(args[0]), RunParameters.fromArgs(List.of(args).subList(1, args.length).toArray(String[]::new)));
        }
    }

    /**
     * JVM A's: the Receivers of every run ({@link #receiverName}).
     *
     * @param port where it listens on the loopback, and JVM B connects
     */
    public record Receivers(int port, int runs, int pairs, int primeLimit) {

        public List<String> toArgs() {
            return List.of(Integer.toString(port), Integer.toString(runs), Integer.toString(pairs), Integer.toString(primeLimit));
        }

        public static Receivers fromArgs(String... args) {
            if (args.length != 4) {
                throw new IllegalArgumentException("expected port runs pairs primeLimit, got " + List.of(args));
            }
            return new Receivers(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        }
    }

    /**
     * JVM B's.
     *
     * @param receiversPort JVM A's port
     * @param port          its own (a reference that listens too: JADE's container, Pekko's actor system)
     * @param runs          as {@link OneJvm#runs}
     */
    public record Senders(int receiversPort, int port, int runs, RunParameters parameters) {

        public List<String> toArgs() {
            List<String> args = new ArrayList<>(List.of(Integer.toString(receiversPort), Integer.toString(port), Integer.toString(runs)));
            args.addAll(parameters.toArgs());
            return args;
        }

        public static Senders fromArgs(String... args) {
            if (args.length < 3) {
                throw new IllegalArgumentException("expected receiversPort port runs and the run parameters, got " + List.of(args));
            }
            return new Senders(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]),
                    RunParameters.fromArgs(List.of(args).subList(3, args.length).toArray(String[]::new)));
        }
    }

    /** The name of run {@code run}'s Receiver of pair {@code i}, the same on every side and in every reference. */
    public static String receiverName(int run, int i) {
        return "receiver-" + run + "-" + i;
    }
}
