package org.siebog.perf.senderreceiver.tcp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.siebog.examples.senderreceiver.RoundTripMeter;
import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.examples.senderreceiver.RunTally;
import org.siebog.perf.senderreceiver.RunParameters;
import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * JVM B of the raw TCP run ({@link TcpJvms}): a connection to JVM A and a thread per pair, each
 * writing a request, reading its echo and writing the next, timed by {@link RoundTripMeter} and
 * tallied by {@link RunTally} as the agents' runs are: every pair warms up, then every pair measures,
 * and every pair keeps going until the last has measured.
 */
public final class TcpSenders {

    private final RunParameters parameters;
    private final RunTally tally;
    private final CompletableFuture<RunResult> outcome = new CompletableFuture<>();
    /** Set once every pair has warmed up: each Sender starts measuring with its next request. */
    private volatile boolean measure;
    /** Set once every pair has measured. */
    private volatile boolean stop;

    private TcpSenders(RunParameters parameters) {
        this.parameters = parameters;
        this.tally = new RunTally(parameters.pairs());
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(1);
        ChildMain.reportAndExit(TcpReceivers.NAME, () -> {
            ChildArgs.Senders parsed = ChildArgs.Senders.fromArgs(args);
            return ChildMain.lastOf(parsed.runs(), run -> new TcpSenders(parsed.parameters()).run(parsed.receiversPort()));
        });
    }

    private RunResult run(int receiversPort) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < parameters.pairs(); i++) {
            Socket socket = new Socket(ChildMain.LOOPBACK, receiversPort);
            socket.setTcpNoDelay(true);
            sockets.add(socket);
        }
        for (Socket socket : sockets) {
            Thread sender = new Thread(() -> send(socket), "sender");
            sender.setDaemon(true);
            sender.start();
        }
        return outcome.get();
    }

    private void send(Socket socket) {
        byte[] request = parameters.randomPayload().getBytes(StandardCharsets.UTF_8);
        RoundTripMeter meter = new RoundTripMeter(parameters.warmup(), parameters.measured());
        boolean measuring = false;
        try (socket;
                DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()))) {
            while (!stop) {
                if (measure && !measuring) {
                    meter.measure();
                    measuring = true;
                }
                meter.sent(System.nanoTime());
                TcpReceivers.write(out, request);
                TcpReceivers.read(in);
                switch (meter.replied(System.nanoTime())) {
                    case WARMED_UP -> warmedUp();
                    case MEASURED -> measured(meter);
                    case NONE -> { }
                }
            }
        } catch (IOException | RuntimeException e) {
            outcome.completeExceptionally(e);
        }
    }

    private synchronized void warmedUp() {
        if (tally.warmedUp()) {
            measure = true;
        }
    }

    private synchronized void measured(RoundTripMeter meter) {
        if (tally.measured(meter.measuredCount(), meter.measuredRttNanos(), meter.windowStartNanos(), meter.windowNanos())) {
            stop = true;
            outcome.complete(tally.result());
        }
    }
}
