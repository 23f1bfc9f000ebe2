package org.siebog.perf.senderreceiver.jade;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;

import jade.core.Profile;
import jade.core.ProfileImpl;
import jade.core.Runtime;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.RunStatusJson;

/**
 * What the JADE child JVMs ({@link JadeSenderReceiver}, {@link JadeReceiverContainer},
 * {@link JadeSenderContainer}) share: a quiet JADE on the loopback with no MTP, the status line on
 * stdout, and ending the JVM themselves, since JADE leaves non-daemon threads behind.
 */
final class JadeChild {

    /** Printed by a child whose container and agents are up, before its result (if any). */
    static final String READY = "ready";

    static final String LOOPBACK = "127.0.0.1";

    private JadeChild() {
    }

    /**
     * The JADE runtime, logging only real trouble (it logs every container and agent start at
     * INFO), leaving the JVM alone when containers end.
     */
    static Runtime runtime() {
        Logger.getLogger("").setLevel(Level.WARNING);
        Runtime runtime = Runtime.instance();
        runtime.setCloseVM(false);
        return runtime;
    }

    /** A container on the loopback at {@code localPort}: RMI IMTP (JADE's default), no GUI, no MTP. */
    static Profile profile(int localPort) {
        Profile profile = new ProfileImpl();
        profile.setParameter(Profile.GUI, "false");
        profile.setParameter(Profile.NO_MTP, "true");
        profile.setParameter(Profile.LOCAL_HOST, LOOPBACK);
        profile.setParameter(Profile.LOCAL_PORT, Integer.toString(localPort));
        return profile;
    }

    /**
     * When the parent closes this JVM's stdin, or dies (which closes it too), the JVM ends with
     * {@code status} at once: no JADE JVM outlives the benchmark.
     */
    static void endWhenStdinCloses(int status) {
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() != -1) {
                    // The parent writes nothing; only the end of the stream counts.
                }
            } catch (IOException e) {
                // A broken stdin means the same: the parent is gone.
            }
            java.lang.Runtime.getRuntime().halt(status);
        }, "end-when-stdin-closes");
        watcher.setDaemon(true);
        watcher.start();
    }

    static void printReady() {
        print(Json.createObjectBuilder().add("state", READY).build());
    }

    /**
     * Runs the measurement, prints its {@link RunStatusJson} line and ends the JVM: 0 finished, 1
     * failed (an OutOfMemoryError included).
     */
    static void reportAndExit(Callable<RunResult> run) {
        JsonObject status;
        try {
            status = RunStatusJson.finished(run.call());
        } catch (OutOfMemoryError e) {
            status = RunStatusJson.failed("JADE ran out of memory (" + e.getMessage() + ")");
        } catch (Exception e) {
            status = RunStatusJson.failed("JADE failed: " + e);
        }
        print(status);
        // JADE leaves non-daemon threads behind: the JVM only ends when told to.
        System.exit(status.containsKey("result") ? 0 : 1);
    }

    private static void print(JsonObject status) {
        System.out.println(status);
        System.out.flush();
    }
}
