package org.siebog.perf.senderreceiver.jade;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.json.JsonObject;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.RunFailedException;
import org.siebog.perf.senderreceiver.RunParameters;
import org.siebog.perf.senderreceiver.RunStatusJson;

/**
 * The JADE run on two nodes: the Receivers in the main container in JVM A
 * ({@link JadeReceiverContainer}), the coordinator and the Senders in a second container in JVM B
 * ({@link JadeSenderContainer}), so every REQUEST and INFORM crosses JVMs through JADE's RMI IMTP.
 * Each JVM gets {@code heap}; each listens on the loopback at its own free port. A starts first and
 * says when its Receivers are up; then B joins and runs the method; B's status line is the result.
 * Either JVM failing fails the run at once; both are always ended.
 */
public final class JadeTwoContainerRun {

    private static final Duration POLL = Duration.ofMillis(200);
    /** RMI would otherwise put the machine's own address in its stubs. */
    private static final String RMI_ON_LOOPBACK = "-Djava.rmi.server.hostname=" + JadeChild.LOOPBACK;

    private JadeTwoContainerRun() {
    }

    /**
     * @param heap      e.g. {@code -Xmx512m}, for each JVM
     * @param classpath the children's classpath: this benchmark's
     * @param timeout   for the whole run, both JVMs' start included
     */
    public static RunResult run(RunParameters parameters, String heap, String classpath, Duration timeout)
            throws RunFailedException {
        Instant deadline = Instant.now().plus(timeout);
        List<String> jvmOptions = List.of(heap, RMI_ON_LOOPBACK);
        try {
            int[] ports = freePorts(2);
            JadeReceiverContainer.Args receiversArgs = new JadeReceiverContainer.Args(ports[0], parameters.pairs());
            JadeSenderContainer.Args sendersArgs = new JadeSenderContainer.Args(ports[0], ports[1], parameters);
            try (ChildJvm receivers = ChildJvm.start("the Receivers' JVM (main container)",
                    ChildJvm.command(jvmOptions, classpath, JadeReceiverContainer.class, receiversArgs.toArgs()))) {
                awaitReady(receivers, deadline, timeout);
                try (ChildJvm senders = ChildJvm.start("the Senders' JVM",
                        ChildJvm.command(jvmOptions, classpath, JadeSenderContainer.class, sendersArgs.toArgs()))) {
                    return awaitResult(senders, receivers, deadline, timeout);
                }
            }
        } catch (IOException e) {
            throw new RunFailedException("could not run the JADE JVMs: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted");
        }
    }

    private static void awaitReady(ChildJvm receivers, Instant deadline, Duration timeout)
            throws InterruptedException, RunFailedException {
        JsonObject status = receivers.nextStatus(deadline);
        if (status == null) {
            // Its stdout ended (it is exiting) or the deadline passed.
            receivers.waitFor(POLL);
            throw new RunFailedException(receivers.isAlive()
                    ? "the Receivers were not up within " + timeout.toSeconds() + " s; killed the JADE JVM"
                    : failure(receivers));
        }
        if (status.containsKey("error")) {
            throw new RunFailedException(receivers.name() + ": " + status.getString("error", ""));
        }
        if (!ChildJvm.isReady(status)) {
            throw new RunFailedException(receivers.name() + " printed " + status + " instead of being ready");
        }
    }

    private static RunResult awaitResult(ChildJvm senders, ChildJvm receivers, Instant deadline, Duration timeout)
            throws InterruptedException, RunFailedException {
        while (!senders.waitFor(POLL)) {
            if (!receivers.isAlive()) {
                throw new RunFailedException(failure(receivers));
            }
            if (Instant.now().isAfter(deadline)) {
                throw new RunFailedException("no result within " + timeout.toSeconds() + " s; killed both JADE JVMs");
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

    /** Ports nothing listens on now: all held open together, so they differ. */
    private static int[] freePorts(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }
}
