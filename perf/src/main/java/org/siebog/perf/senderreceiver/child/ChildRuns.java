package org.siebog.perf.senderreceiver.child;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.json.JsonObject;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.RunFailedException;
import org.siebog.perf.senderreceiver.RunParameters;
import org.siebog.perf.senderreceiver.RunStatusJson;

/**
 * Runs a reference system's side of the benchmark in child JVMs, each with the heap a Siebog node
 * has, so that one run's garbage, threads or OutOfMemoryError cannot touch the next: in one JVM (one
 * node), or in two (two nodes: the Receivers in JVM A, the coordinator and the Senders in JVM B, so
 * every request and reply crosses JVMs). Each child prints {@link ChildMain}'s status lines; the
 * result is the last one of the JVM that runs the Senders. Either JVM failing fails the run at once;
 * every JVM is always ended.
 */
public final class ChildRuns {

    /** The heap of a node started by {@code ./siebog run}. */
    public static final String HEAP = "-Xmx1g";
    private static final Duration POLL = Duration.ofMillis(200);

    /**
     * A reference's child JVMs, by their main classes.
     *
     * @param system    how failures name it, e.g. "JADE"
     * @param oneJvm    the whole run on one node, with {@link ChildArgs.OneJvm}; null when the reference runs on two nodes only
     * @param receivers JVM A on two nodes, with {@link ChildArgs.Receivers}
     * @param senders   JVM B on two nodes, with {@link ChildArgs.Senders}
     */
    public record Mains(String system, List<String> jvmOptions, Class<?> oneJvm, Class<?> receivers, Class<?> senders) {
    }

    private record Child(Class<?> main, List<String> args) {
    }

    private ChildRuns() {
    }

    /**
     * One configuration on {@code nodes} nodes (1 or 2), run {@code runs} times in the same JVMs, the
     * last one measured; {@code timeout} is for each run.
     */
    public static RunResult run(Mains mains, RunParameters parameters, int runs, int nodes, Duration timeout) throws RunFailedException {
        Duration all = timeout.multipliedBy(runs);
        if (nodes == 1) {
            if (mains.oneJvm() == null) {
                throw new RunFailedException(mains.system() + " runs on two nodes only");
            }
            return inOneJvm(mains.system(), mains.jvmOptions(), new Child(mains.oneJvm(), new ChildArgs.OneJvm(runs, parameters).toArgs()), all);
        }
        int[] ports = freePorts(2);
        ChildArgs.Receivers receivers = new ChildArgs.Receivers(ports[0], runs, parameters.pairs(), parameters.primeLimit());
        ChildArgs.Senders senders = new ChildArgs.Senders(ports[0], ports[1], runs, parameters);
        return inTwoJvms(mains.system(), mains.jvmOptions(), new Child(mains.receivers(), receivers.toArgs()),
                new Child(mains.senders(), senders.toArgs()), all);
    }

    /** The whole run in one JVM. */
    private static RunResult inOneJvm(String system, List<String> jvmOptions, Child child, Duration timeout) throws RunFailedException {
        Instant deadline = Instant.now().plus(timeout);
        try (ChildJvm jvm = ChildJvm.start(system + "'s JVM", command(jvmOptions, child))) {
            return awaitResult(jvm, null, deadline, timeout);
        } catch (IOException e) {
            throw new RunFailedException("could not run " + system + "'s JVM: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted");
        }
    }

    /**
     * The Receivers in JVM A, started first, which says when they are up; then the Senders in JVM B,
     * whose last status line is the result.
     */
    private static RunResult inTwoJvms(String system, List<String> jvmOptions, Child receivers, Child senders, Duration timeout)
            throws RunFailedException {
        Instant deadline = Instant.now().plus(timeout);
        try (ChildJvm a = ChildJvm.start(system + "'s Receivers' JVM", command(jvmOptions, receivers))) {
            awaitReady(a, deadline, timeout);
            try (ChildJvm b = ChildJvm.start(system + "'s Senders' JVM", command(jvmOptions, senders))) {
                return awaitResult(b, a, deadline, timeout);
            }
        } catch (IOException e) {
            throw new RunFailedException("could not run " + system + "'s JVMs: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted");
        }
    }

    /** Ports nothing listens on now: all held open together, so they differ. */
    private static int[] freePorts(int count) throws RunFailedException {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new RunFailedException("no free port for a child JVM: " + e.getMessage());
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    try {
                        socket.close();
                    } catch (IOException e) {
                        // It was only held to pick its number.
                    }
                }
            }
        }
    }

    private static List<String> command(List<String> jvmOptions, Child child) {
        List<String> options = new ArrayList<>(List.of(HEAP));
        options.addAll(jvmOptions);
        return ChildJvm.command(options, System.getProperty("java.class.path"), child.main(), child.args());
    }

    private static void awaitReady(ChildJvm receivers, Instant deadline, Duration timeout) throws InterruptedException, RunFailedException {
        JsonObject status = receivers.nextStatus(deadline);
        if (status == null) {
            // Its stdout ended (it is exiting) or the deadline passed.
            receivers.waitFor(POLL);
            throw new RunFailedException(receivers.isAlive()
                    ? "the Receivers were not up within " + timeout.toSeconds() + " s; killed " + receivers.name()
                    : failure(receivers));
        }
        if (status.containsKey("error")) {
            throw new RunFailedException(receivers.name() + ": " + status.getString("error", ""));
        }
        if (!ChildJvm.isReady(status)) {
            throw new RunFailedException(receivers.name() + " printed " + status + " instead of being ready");
        }
    }

    /** The result {@code senders} prints, failing at once when {@code partner} (if any) ends first. */
    private static RunResult awaitResult(ChildJvm senders, ChildJvm partner, Instant deadline, Duration timeout)
            throws InterruptedException, RunFailedException {
        while (!senders.waitFor(POLL)) {
            if (partner != null && !partner.isAlive()) {
                throw new RunFailedException(failure(partner));
            }
            if (Instant.now().isAfter(deadline)) {
                throw new RunFailedException("no result within " + timeout.toSeconds() + " s; killed " + senders.name()
                        + (partner == null ? "" : " and " + partner.name()));
            }
        }
        JsonObject status = senders.lastStatus();
        if (status == null) {
            throw new RunFailedException(senders.ending() + " and no result");
        }
        return RunStatusJson.result(status);
    }

    /** Why a child ended: the error it printed, else its exit status and stderr. */
    private static String failure(ChildJvm child) throws InterruptedException {
        JsonObject status = child.isAlive() ? null : child.lastStatus();
        if (status != null && status.containsKey("error")) {
            return child.name() + ": " + status.getString("error", "");
        }
        return child.ending();
    }
}
