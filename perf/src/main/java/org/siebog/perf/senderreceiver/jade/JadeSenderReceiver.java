package org.siebog.perf.senderreceiver.jade;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.logging.Level;
import java.util.logging.Logger;

import jade.core.Profile;
import jade.core.ProfileImpl;
import jade.core.Runtime;
import jade.wrapper.AgentContainer;

import jakarta.json.JsonObject;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.RunParameters;
import org.siebog.perf.senderreceiver.RunStatusJson;

/**
 * The JADE side of the benchmark, run by the benchmark in a child JVM: one main container in this
 * JVM, the pairs and the coordinator in it. Arguments: {@link RunParameters#toArgs()}. Prints one
 * {@link RunStatusJson} line on stdout and exits (0 finished, 1 failed).
 */
public final class JadeSenderReceiver {

    private JadeSenderReceiver() {
    }

    public static void main(String[] args) {
        JsonObject status;
        try {
            status = RunStatusJson.finished(run(RunParameters.fromArgs(args)));
        } catch (OutOfMemoryError e) {
            status = RunStatusJson.failed("JADE ran out of memory (" + e.getMessage() + ")");
        } catch (Exception e) {
            status = RunStatusJson.failed("JADE failed: " + e);
        }
        System.out.println(status);
        System.out.flush();
        // JADE leaves non-daemon threads behind: the JVM only ends when told to.
        System.exit(status.containsKey("result") ? 0 : 1);
    }

    private static RunResult run(RunParameters parameters) throws Exception {
        // JADE logs every container and agent start at INFO; the child's stderr is for real trouble.
        Logger.getLogger("").setLevel(Level.WARNING);
        Runtime runtime = Runtime.instance();
        runtime.setCloseVM(false);
        Profile profile = new ProfileImpl();
        profile.setParameter(Profile.MAIN, "true");
        profile.setParameter(Profile.GUI, "false");
        profile.setParameter(Profile.NO_MTP, "true");
        profile.setParameter(Profile.LOCAL_HOST, "127.0.0.1");
        profile.setParameter(Profile.LOCAL_PORT, Integer.toString(freePort()));
        AgentContainer container = runtime.createMainContainer(profile);
        if (container == null) {
            throw new IllegalStateException("JADE could not start its main container (see its log on stderr)");
        }
        RunOutcome outcome = new RunOutcome();
        container.createNewAgent("sender-receiver-run", JadeRun.class.getName(), new Object[] {outcome, parameters}).start();
        return outcome.await();
    }

    /** Another JADE (or anything else) may hold the default port 1099. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
