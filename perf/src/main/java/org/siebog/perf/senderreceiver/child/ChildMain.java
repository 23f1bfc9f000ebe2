package org.siebog.perf.senderreceiver.child;

import java.io.IOException;
import java.util.concurrent.Callable;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.RunStatusJson;

/**
 * What every reference system's child JVM does the same way (JADE, Pekko, raw TCP): it ends when the
 * benchmark closes its stdin, says on stdout when it is ready and what it measured, one JSON status
 * line each ({@link RunStatusJson}), and ends the JVM itself, since JADE and Pekko leave non-daemon
 * threads behind.
 */
public final class ChildMain {

    /** Printed by a child whose agents (actors, sockets) are up, before its result (if any). */
    public static final String READY = "ready";

    /** Every reference listens on the loopback only. */
    public static final String LOOPBACK = "127.0.0.1";

    private ChildMain() {
    }

    /**
     * When the parent closes this JVM's stdin, or dies (which closes it too), the JVM ends with
     * {@code status} at once: no child outlives the benchmark.
     */
    public static void endWhenStdinCloses(int status) {
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() != -1) {
                    // The parent writes nothing; only the end of the stream counts.
                }
            } catch (IOException e) {
                // A broken stdin means the same: the parent is gone.
            }
            Runtime.getRuntime().halt(status);
        }, "end-when-stdin-closes");
        watcher.setDaemon(true);
        watcher.start();
    }

    public static void printReady() {
        print(Json.createObjectBuilder().add("state", READY).build());
    }

    /**
     * Runs the measurement, prints its {@link RunStatusJson} line and ends the JVM: 0 finished, 1
     * failed (an OutOfMemoryError included).
     *
     * @param system how a failure names what failed, e.g. "JADE"
     */
    public static void reportAndExit(String system, Callable<RunResult> run) {
        JsonObject status;
        try {
            status = RunStatusJson.finished(run.call());
        } catch (OutOfMemoryError e) {
            status = RunStatusJson.failed(system + " ran out of memory (" + e.getMessage() + ")");
        } catch (Exception e) {
            status = RunStatusJson.failed(system + " failed: " + e);
        }
        print(status);
        System.exit(status.containsKey("result") ? 0 : 1);
    }

    /** One run of the method, the {@code run}th in this JVM (from 0). */
    public interface Run {
        RunResult run(int run) throws Exception;
    }

    /** Runs the method {@code runs} times, one after the other, and gives the last run's result: the earlier ones warm the JVM up. */
    public static RunResult lastOf(int runs, Run run) throws Exception {
        RunResult last = null;
        for (int i = 0; i < runs; i++) {
            last = run.run(i);
            if (i < runs - 1) {
                System.err.printf("warm-up run %d of %d: %.0f round trips/s%n", i + 1, runs - 1, last.roundTripsPerSec());
            }
        }
        return last;
    }

    private static void print(JsonObject status) {
        System.out.println(status);
        System.out.flush();
    }
}
