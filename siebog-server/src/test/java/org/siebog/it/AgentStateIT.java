package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.aid;
import static org.siebog.it.SiebogApi.message;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Detached agents' state over the device WebSocket (docs/device-protocol.md, "Agent state"), against
 * a real WildFly and the real Cassandra the build starts for the integration tests: saving and
 * loading with versions, the conditional-write rule, restarting from saved state, and every refusal
 * changing nothing.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AgentStateIT {

    private static final AtomicInteger NAMES = new AtomicInteger();

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    private final SiebogApi siebog = SiebogApi.testServer();
    private final AtomicInteger refs = new AtomicInteger(100);

    private static String name(String prefix) {
        return prefix + "-" + NAMES.incrementAndGet();
    }

    @AfterEach
    void stopClientAgents() {
        siebog.stopAll("TestClient");
    }

    /** Sends {@code saveState} and returns the answer ({@code stateSaved} or {@code error}). */
    private JsonObject save(TestDevice device, String aid, long version, JsonValue state) {
        int ref = refs.incrementAndGet();
        device.send(Json.createObjectBuilder().add("op", "saveState").add("ref", ref).add("aid", aid).add("version", version)
                .add("state", state).build());
        return answer(device, ref);
    }

    private JsonObject load(TestDevice device, String aid) {
        int ref = refs.incrementAndGet();
        device.send(Json.createObjectBuilder().add("op", "loadState").add("ref", ref).add("aid", aid).build());
        return answer(device, ref);
    }

    private static JsonObject answer(TestDevice device, int ref) {
        JsonObject frame = device.next();
        assertEquals(ref, frame.getInt("ref"), frame::toString);
        return frame;
    }

    private static JsonObject progress(int done) {
        return Json.createObjectBuilder().add("done", done).add("note", "café \"quoted\"").build();
    }

    private static void assertSaved(long version, JsonObject answer) {
        assertEquals("stateSaved", answer.getString("op"), answer::toString);
        assertEquals(version, answer.getJsonNumber("version").longValue(), answer::toString);
    }

    private static void assertRefused(int status, String mentions, JsonObject answer) {
        assertEquals("error", answer.getString("op"), answer::toString);
        assertEquals(status, answer.getInt("status"), answer::toString);
        assertTrue(answer.getString("error").contains(mentions), () -> "'" + answer.getString("error") + "' should mention " + mentions);
    }

    @Test
    void anAgentSavesAndLoadsItsStateVersionByVersion() {
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            JsonObject start = device.startClientAgent(siebog, "TestClient", name("saver"));
            String aid = start.getString("aid");
            assertEquals(0, start.getInt("version"), "a new agent has saved nothing");
            assertEquals(JsonValue.NULL, start.get("state"));
            JsonObject loaded = load(device, aid);
            assertEquals("state", loaded.getString("op"));
            assertEquals(0, loaded.getInt("version"));
            assertEquals(JsonValue.NULL, loaded.get("state"));

            assertSaved(1, save(device, aid, 0, progress(1)));
            assertSaved(2, save(device, aid, 1, progress(2)));

            loaded = load(device, aid);
            assertEquals(aid, loaded.getString("aid"));
            assertEquals(2, loaded.getInt("version"));
            assertEquals(progress(2), loaded.getJsonObject("state"));
            assertSaved(3, save(device, aid, 2, Json.createArrayBuilder().add(1).add("two").build()));
            assertEquals(Json.createArrayBuilder().add(1).add("two").build(), load(device, aid).getJsonArray("state"));
        }
    }

    @Test
    void aSaveNamingAnOldVersionIsA409WithTheCurrentOneAndChangesNothing() {
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            String aid = device.startClientAgent(siebog, "TestClient", name("stale")).getString("aid");
            assertSaved(1, save(device, aid, 0, progress(1)));

            JsonObject refused = save(device, aid, 0, progress(99));
            assertRefused(409, "is at version 1, not 0", refused);
            assertEquals(1, refused.getInt("version"));
            assertRefused(409, "is at version 1, not 7", save(device, aid, 7, progress(99)));

            JsonObject loaded = load(device, aid);
            assertEquals(1, loaded.getInt("version"));
            assertEquals(progress(1), loaded.getJsonObject("state"));
        }
    }

    @Test
    void whenItsDeviceVanishesAnAgentStartsElsewhereFromItsLastSavedState() {
        try (TestDevice first = TestDevice.join(siebog, 10); TestDevice second = TestDevice.join(siebog, 10)) {
            String aid = first.startClientAgent(siebog, "TestClient", name("mover")).getString("aid");
            assertSaved(1, save(first, aid, 0, progress(1)));
            assertSaved(2, save(first, aid, 1, progress(2)));
            siebog.send(message("INFORM").to(aid).content("m1").json());
            assertEquals("m1", first.next("deliver").getJsonObject("message").getString("content"));

            first.vanish();

            JsonObject start = second.startAgent();
            assertEquals(aid, start.getString("aid"));
            assertEquals(2, start.getInt("version"));
            assertEquals(progress(2), start.getJsonObject("state"));
            assertEquals("m1", second.next("deliver").getJsonObject("message").getString("content"), "then what was not acked");
            assertSaved(3, save(second, aid, 2, progress(3)));
        }
    }

    @Test
    void stateSurvivesTwoMoves() {
        try (TestDevice first = TestDevice.join(siebog, 10)) {
            String aid = first.startClientAgent(siebog, "TestClient", name("twice")).getString("aid");
            assertSaved(1, save(first, aid, 0, progress(1)));
            try (TestDevice second = TestDevice.join(siebog, 10)) {
                first.vanish();
                JsonObject moved = second.startAgent();
                assertEquals(progress(1), moved.getJsonObject("state"));
                assertSaved(2, save(second, aid, 1, progress(2)));
                try (TestDevice third = TestDevice.join(siebog, 10)) {
                    second.vanish();
                    JsonObject again = third.startAgent();
                    assertEquals(2, again.getInt("version"));
                    assertEquals(progress(2), again.getJsonObject("state"));
                }
            }
        }
    }

    @Test
    void aStoppedAgentsStateIsClearedSoANewOneOfItsNameStartsEmpty() {
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            String name = name("reborn");
            String aid = device.startClientAgent(siebog, "TestClient", name).getString("aid");
            assertSaved(1, save(device, aid, 0, progress(1)));

            assertEquals(204, siebog.delete("agents/" + aid).status());
            device.next("stop");

            JsonObject start = device.startClientAgent(siebog, "TestClient", name);
            assertEquals(JsonValue.NULL, start.get("state"));
            long version = start.getJsonNumber("version").longValue();
            assertTrue(version >= 2, "versions go on from the old agent's: " + start);
            assertSaved(version + 1, save(device, aid, version, progress(1)));
        }
    }

    @Test
    void aDeviceCanSpawnAnAgentOnItself() {
        try (TestDevice device = TestDevice.join(siebog, 1); TestDevice heavier = TestDevice.join(siebog, 1_000_000)) {
            String name = name("own");
            device.send(Json.createObjectBuilder().add("op", "spawn").add("ref", 1).add("agentClass", "TestClient").add("name", name)
                    .add("device", device.id()).build());
            device.startAgent();
            JsonObject spawned = device.next("spawned");
            assertEquals(device.id(), spawned.getString("location"));
            assertSaved(1, save(device, aid(name), 0, progress(1)));
        }
    }

    @Test
    void refusedStateRequestsAreAnsweredAndChangeNothing() {
        try (TestDevice device = TestDevice.join(siebog, 10); TestDevice other = TestDevice.join(siebog, 10)) {
            String mine = device.startClientAgent(siebog, "TestClient", name("mine")).getString("aid");
            String theirs = other.startClientAgent(siebog, "TestClient", name("theirs")).getString("aid");
            assertSaved(1, save(other, theirs, 0, progress(1)));
            String recorder = siebog.startAgent("Recorder", name("server"));

            assertRefused(403, "does not host", save(device, theirs, 1, progress(66)));
            assertRefused(403, "does not host", load(device, theirs));
            assertRefused(403, "does not host", save(device, recorder, 0, progress(66)));
            assertRefused(404, "nobody", save(device, "nobody@siebog", 0, progress(66)));
            assertRefused(404, "nobody", load(device, "nobody@siebog"));
            String big = "x".repeat(70_000);
            assertRefused(413, "at most 65536", save(device, mine, 0, Json.createValue(big)));

            for (String bad : new String[] {
                "{\"op\":\"saveState\",\"ref\":1,\"aid\":\"" + mine + "\",\"version\":0}",
                "{\"op\":\"saveState\",\"ref\":2,\"aid\":\"" + mine + "\",\"version\":-1,\"state\":1}",
                "{\"op\":\"saveState\",\"ref\":3,\"aid\":\"" + mine + "\",\"version\":\"0\",\"state\":1}",
                "{\"op\":\"saveState\",\"ref\":4,\"aid\":\"not an aid\",\"version\":0,\"state\":1}",
                "{\"op\":\"saveState\",\"aid\":\"" + mine + "\",\"version\":0,\"state\":1}",
                "{\"op\":\"loadState\",\"aid\":\"" + mine + "\"}",
            }) {
                device.send(bad);
                JsonObject error = device.next("error");
                assertEquals(400, error.getInt("status"), () -> bad + " → " + error);
            }

            assertTrue(device.isOpen());
            JsonObject mineNow = load(device, mine);
            assertEquals(0, mineNow.getInt("version"), "nothing was saved for " + mine);
            assertEquals(JsonValue.NULL, mineNow.get("state"));
            JsonObject theirsNow = load(other, theirs);
            assertEquals(1, theirsNow.getInt("version"));
            assertEquals(progress(1), theirsNow.getJsonObject("state"));
        }
    }
}
