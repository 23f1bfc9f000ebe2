package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Cassandra going down and coming back, for real: the test stops the integration tests' Cassandra
 * process (launcher/cassandra.sh, by PID) and starts it again on the same data. While it is down,
 * saves fail with a clear 503 and messaging goes on; a device leaving then does not restart its
 * agents from nothing (they wait); once Cassandra is back, saving works again and the waiting agent
 * starts from its saved state.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class StateOutageIT {

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    private final SiebogApi siebog = SiebogApi.testServer();
    private int ref = 1;
    private boolean stopped;

    private JsonObject save(TestDevice device, String aid, long version, int done) {
        int r = ref++;
        device.send(Json.createObjectBuilder().add("op", "saveState").add("ref", r).add("aid", aid).add("version", version)
                .add("state", Json.createObjectBuilder().add("done", done)).build());
        JsonObject answer = device.next();
        assertEquals(r, answer.getInt("ref"), answer::toString);
        return answer;
    }

    @Test
    void whileCassandraIsDownSavesFailClearlyMessagingGoesOnAndAfterwardsEverythingResumes() throws Exception {
        try (TestDevice first = TestDevice.join(siebog, 10)) {
            String aid = first.startClientAgent(siebog, "TestClient", "outage").getString("aid");
            assertEquals("stateSaved", save(first, aid, 0, 1).getString("op"));

            cassandra("stop");
            try {
                long before = System.nanoTime();
                JsonObject refused = save(first, aid, 1, 2);
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);
                assertEquals("error", refused.getString("op"), refused::toString);
                assertEquals(503, refused.getInt("status"), refused::toString);
                assertTrue(refused.getString("error").startsWith("the state of " + aid + " could not be saved or read: "),
                        refused::toString);
                assertTrue(ms < 10_000, "answered in " + ms + " ms");
                long version = refused.getJsonNumber("version").longValue();
                assertEquals(2, version, "the failed save used up version 2: " + refused);

                // Messaging does not need Cassandra: REST → client agent, and the device → a server agent.
                siebog.send(message("INFORM").to(aid).content("while down").json());
                JsonObject deliver = first.next("deliver");
                assertEquals("while down", deliver.getJsonObject("message").getString("content"));
                first.send(Json.createObjectBuilder().add("op", "ack").add("aid", aid).add("seq", deliver.getInt("seq")).build());
                String recorder = siebog.startAgent("Recorder", "outage-witness");
                first.send(Json.createObjectBuilder().add("op", "send").add("ref", 900)
                        .add("message", message("INFORM").to(recorder).from(aid).content("from the device").json()).build());
                assertEquals(900, first.next("sent").getInt("ref"));

                // A new client agent needs its saved state read first: the caller hears 503 (the store's
                // failure, not a bad request) and nothing of the agent is left.
                SiebogApi.Reply refusedStart = siebog.post("agents", Json.createObjectBuilder().add("agentClass", "TestClient")
                        .add("name", "outage-new").add("device", first.id()).build().toString());
                assertTrue(refusedStart.assertError(503).contains("state"), refusedStart::toString);
                assertFalse(siebog.agents().containsKey(SiebogApi.aid("outage-new")), "nothing of the refused agent is left");

                // Its device leaves while the state cannot be read: the agent waits rather than start from nothing.
                try (TestDevice second = TestDevice.join(siebog, 10)) {
                    first.vanish();
                    SiebogApi.sleep(3_000);
                    assertEquals("", second.pendingOps(), "no start while Cassandra is down");

                    cassandra("start");
                    JsonObject start = second.startAgent(); // within 30 s of Cassandra answering again
                    assertEquals(aid, start.getString("aid"));
                    assertEquals(2, start.getInt("version"), start::toString);
                    assertEquals(1, start.getJsonObject("state").getInt("done"), "the last acknowledged state");

                    JsonObject saved = awaitSaved(second, aid, version);
                    assertEquals(3, saved.getInt("version"));
                }
            } finally {
                cassandra("start"); // whatever happened above, the later tests get their Cassandra back
            }
        }
    }

    /** Saves until the driver has reconnected (it retries every 2 s at most). */
    private JsonObject awaitSaved(TestDevice device, String aid, long version) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            JsonObject answer = save(device, aid, version, 3);
            if (answer.getString("op").equals("stateSaved") || System.nanoTime() > deadline) {
                assertEquals("stateSaved", answer.getString("op"), answer::toString);
                return answer;
            }
            SiebogApi.sleep(500);
        }
    }

    /** Runs launcher/cassandra.sh with the build's settings for the test node; starts it only if this test stopped it. */
    private void cassandra(String command) throws IOException, InterruptedException {
        if (command.equals("start") && !stopped) {
            return;
        }
        Process p = script(command).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "cassandra.sh " + command + " took over 180 s");
        assertEquals(0, p.exitValue(), "cassandra.sh " + command + " failed; see its output in the failsafe report");
        stopped = command.equals("stop");
    }

    private static ProcessBuilder script(String command) {
        ProcessBuilder pb = new ProcessBuilder("bash", System.getProperty("siebog.it.cassandraScript"), command).inheritIO();
        pb.environment().put("SIEBOG_CASSANDRA_DIR", Path.of(System.getProperty("siebog.it.cassandraDir")).toString());
        pb.environment().put("SIEBOG_CASSANDRA_PORT", System.getProperty("siebog.it.cassandraPort"));
        pb.environment().put("SIEBOG_CASSANDRA_STORAGE_PORT", System.getProperty("siebog.it.cassandraStoragePort"));
        pb.environment().put("SIEBOG_CASSANDRA_JMX_PORT", System.getProperty("siebog.it.cassandraJmxPort"));
        return pb;
    }
}
