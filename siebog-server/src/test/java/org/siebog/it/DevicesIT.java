package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.aid;
import static org.siebog.it.SiebogApi.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Reply;

/**
 * The device WebSocket against a real WildFly, with devices played by the test (the browser side
 * is tested in real Chromium by siebog-client-js): joining, client agents placed on devices,
 * messages both ways, a device leaving, and every documented error and close code.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DevicesIT {

    private static final AtomicInteger NAMES = new AtomicInteger();

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    @ArquillianResource
    private ManagementClient management;

    private final SiebogApi siebog = SiebogApi.testServer();

    private static String name(String prefix) {
        return prefix + "-" + NAMES.incrementAndGet();
    }

    /** Client agents outlive their devices (they move to the next one): each test stops its own. */
    @AfterEach
    void stopClientAgents() {
        siebog.stopAll("TestClient");
    }

    private JsonObject deviceListed(String id) {
        Reply reply = siebog.get("devices");
        assertEquals(200, reply.status(), reply::toString);
        return reply.array().stream().map(JsonObject.class::cast).filter(d -> d.getString("id").equals(id)).findFirst().orElse(null);
    }

    /** Starts a TestClient agent on {@code device} through REST; the device answers the start frame. */
    private String startClientAgent(TestDevice device, String name) {
        return device.startClientAgent(siebog, "TestClient", name).getString("aid");
    }

    @Test
    void aJoinedDeviceIsListedWithTheComputeUnitsItClaimsWhereClaimsAreTrusted() {
        try (ServerProperties properties = new ServerProperties(management).set("siebog.device.trust-claimed-compute-units", "true");
                TestDevice device = TestDevice.join(siebog, 12.5)) {
            assertTrue(device.id().matches("d-[0-9a-f]{8}"), device.id());
            JsonObject listed = deviceListed(device.id());
            assertEquals(12.5, listed.getJsonNumber("computeUnits").doubleValue());
            assertEquals(0, listed.getInt("agents"));
            device.send(Json.createObjectBuilder().add("op", "computeUnits").add("computeUnits", 20).build());
            SiebogApi.await("the new compute units are listed",
                    () -> deviceListed(device.id()).getJsonNumber("computeUnits").doubleValue() == 20);
            assertEquals("client", siebog.agentClasses().get("TestClient"));
        }
    }

    @Test
    void messagesReachAClientAgentAndItsRepliesReachServerAgents() {
        String recorder = siebog.startAgent("Recorder", name("rec"));
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            String client = startClientAgent(device, name("client"));
            assertEquals(1, deviceListed(device.id()).getInt("agents"));

            siebog.send(message("REQUEST").to(client).content("hello").json());
            JsonObject deliver = device.next("deliver");
            assertEquals(client, deliver.getString("aid"));
            assertEquals(1, deliver.getInt("seq"));
            assertEquals("hello", deliver.getJsonObject("message").getString("content"));
            device.send(Json.createObjectBuilder().add("op", "ack").add("aid", client).add("seq", 1).build());

            device.send(Json.createObjectBuilder().add("op", "send").add("ref", 7)
                    .add("message", message("INFORM").to(recorder).from(client).content("hi from the browser").json()).build());
            assertEquals(7, device.next("sent").getInt("ref"));
            siebog.awaitRecords(recorder.substring(0, recorder.indexOf('@')), "the device's message",
                    r -> r.contents().contains("hi from the browser"));
            // Its ack and its send are its messages: a rate once their window is over (windows of 5 s).
            SiebogApi.await("the device's messages per second", () -> deviceListed(device.id()).getJsonNumber("messagesPerSecond")
                    .doubleValue() > 0);

            // The device stops its own agent: the server confirms, and pushes stop (in either order).
            device.send(Json.createObjectBuilder().add("op", "stopAgent").add("aid", client).add("ref", 8).build());
            Map<String, JsonObject> byOp = new java.util.HashMap<>();
            for (int i = 0; i < 2; i++) {
                JsonObject frame = device.next();
                byOp.put(frame.getString("op"), frame);
            }
            assertEquals(client, byOp.get("stop").getString("aid"), byOp::toString);
            assertEquals(8, byOp.get("agentStopped").getInt("ref"), byOp::toString);
            // The stop runs on the agent's lane after its current messages, and its directory entry goes
            // right after the agent's onStop: a list read just then may still show it, for a moment.
            SiebogApi.await(client + " gone from GET /agents", () -> !siebog.agents().containsKey(client));
        }
    }

    @Test
    void aDeviceCanStartClientAgentsOnItself() {
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            String name = name("spawned");
            device.send(Json.createObjectBuilder().add("op", "spawn").add("ref", 1).add("agentClass", "TestClient").add("name", name)
                    .add("device", device.id()).build());
            assertEquals(aid(name), device.startAgent().getString("aid"));
            JsonObject spawned = device.next("spawned");
            assertEquals(aid(name), spawned.getString("aid"));
            assertEquals(device.id(), spawned.getString("location"));
            assertEquals(device.id(), siebog.agents().get(aid(name)).getString("location"));
            device.send(Json.createObjectBuilder().add("op", "spawn").add("ref", 2).add("agentClass", "TestClient").add("name", name).build());
            JsonObject taken = device.next("error");
            assertEquals(409, taken.getInt("status"));
            assertEquals(2, taken.getInt("ref"));
        }
    }

    @Test
    void whenADeviceVanishesItsAgentRunsOnAnotherAndGetsEveryMessage() {
        try (TestDevice first = TestDevice.join(siebog, 10); TestDevice second = TestDevice.join(siebog, 10)) {
            String client = startClientAgent(first, name("mover"));
            siebog.send(message("INFORM").to(client).content("m1").json());
            assertEquals("m1", first.next("deliver").getJsonObject("message").getString("content"));
            // m1 is never acknowledged: the first device dies with it.
            first.vanish();
            siebog.send(message("INFORM").to(client).content("m2").json()); // while the agent has no device
            JsonObject start = second.startAgent();
            assertEquals(client, start.getString("aid"));
            assertEquals("m1", second.next("deliver").getJsonObject("message").getString("content"));
            assertEquals("m2", second.next("deliver").getJsonObject("message").getString("content"));
            assertEquals(second.id(), siebog.agents().get(client).getString("location"));
            SiebogApi.await("the vanished device is no longer listed", () -> deviceListed(first.id()) == null);
        }
    }

    @Test
    void whenEveryDeviceGoesAtOnceTheFirstBackIsNotCrowdedWithAllTheirAgents() {
        // Equal units, so a quarter of the units is a quarter of the devices (measured units vary from join to join).
        try (ServerProperties properties = new ServerProperties(management).set("siebog.device.trust-claimed-compute-units", "true")) {
            everyDeviceGoesAtOnce();
        }
    }

    private void everyDeviceGoesAtOnce() {
        SiebogApi.await("the other tests' devices have left", () -> siebog.get("devices").array().isEmpty());
        List<TestDevice> gone = List.of(TestDevice.join(siebog, 10), TestDevice.join(siebog, 10), TestDevice.join(siebog, 10),
                TestDevice.join(siebog, 10));
        List<String> agents = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            agents.add(startClientAgent(gone.get(i % gone.size()), name("crowd")));
        }
        SiebogApi.sleep(2_000); // the sweep reads the units joined once a second while no agent waits: let it see all four
        gone.forEach(TestDevice::vanish);
        SiebogApi.await("the vanished devices are no longer listed", () -> siebog.get("devices").array().isEmpty());
        try (TestDevice first = TestDevice.join(siebog, 10)) {
            // A quarter of the compute units are back: at most a quarter of the agents start now.
            int startedNow = 0;
            while (first.startAgentWithin(Duration.ofSeconds(2)).isPresent()) {
                startedNow++;
            }
            assertTrue(startedNow >= 1 && startedNow <= 5, startedNow + " of 20 agents started on the first device back");
            // The others do not come back: once the rejoin window has passed, the rest start on this one.
            for (int i = startedNow; i < agents.size(); i++) {
                first.startAgent();
            }
            Map<String, JsonObject> listed = siebog.agents();
            agents.forEach(aid -> assertEquals(first.id(), listed.get(aid).getString("location"), aid));
        }
    }

    @Test
    void aDeviceThatStopsHeartbeatingIsClosedWith4008() {
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            device.stopHeartbeats();
            assertEquals(4008, device.closeCode());
            SiebogApi.await("the silent device is no longer listed", () -> deviceListed(device.id()) == null);
        }
    }

    @Test
    void aClientAgentWithoutADeviceIsA503AndAnUnknownDeviceA400() {
        Reply unknown = siebog.post("agents", "{\"agentClass\":\"TestClient\",\"name\":\"" + name("nowhere") + "\",\"device\":\"d-00000000\"}");
        assertTrue(unknown.assertError(400).contains("d-00000000"));
        Reply serverOnDevice = siebog.post("agents", "{\"agentClass\":\"Recorder\",\"name\":\"" + name("x") + "\",\"device\":\"d-00000000\"}");
        serverOnDevice.assertError(400);
        SiebogApi.await("the other tests' devices have left", () -> siebog.get("devices").array().isEmpty());
        String noDevice = siebog.post("agents", "{\"agentClass\":\"TestClient\",\"name\":\"" + name("nodevice") + "\"}").assertError(503);
        assertTrue(noDevice.contains("no device"), noDevice);
    }

    // --- bad frames: an error or a close code, and nothing changes --------------------------------

    @Test
    void framesThatBreakTheProtocolCloseTheSocket() {
        Map<String, JsonObject> agentsBefore = siebog.agents();
        int devicesBefore = siebog.get("devices").array().size();

        assertCloses(1007, d -> d.send("this is not json"));
        assertCloses(1007, d -> d.send("[1,2,3]"));
        assertCloses(1007, d -> d.send("{\"noOp\":true}"));
        assertCloses(1003, d -> d.sendBinary(new byte[] {1, 2, 3}));
        assertCloses(4001, d -> d.send("{\"op\":\"send\",\"message\":{}}"));
        assertCloses(1009, d -> d.send("{\"op\":\"join\",\"computeUnits\":1,\"label\":\"" + "x".repeat(300 * 1024) + "\"}"));

        assertEquals(agentsBefore.keySet(), siebog.agents().keySet());
        assertEquals(devicesBefore, siebog.get("devices").array().size());
    }

    private void assertCloses(int code, java.util.function.Consumer<TestDevice> frame) {
        try (TestDevice device = TestDevice.open(siebog)) {
            frame.accept(device);
            assertEquals(code, device.closeCode());
        }
    }

    @Test
    void mistakesInsideAFrameAreAnsweredAndChangeNothing() {
        String recorderName = name("witness");
        String witness = siebog.startAgent("Recorder", recorderName);
        try (TestDevice device = TestDevice.join(siebog, 10); TestDevice other = TestDevice.join(siebog, 10)) {
            String othersAgent = startClientAgent(other, name("others"));
            Map<String, JsonObject> agentsBefore = siebog.agents();

            assertError(device, 400, "{\"op\":\"dance\"}", "unknown op");
            assertError(device, 409, "{\"op\":\"join\",\"computeUnits\":3}", "already joined");
            assertError(device, 400, "{\"op\":\"computeUnits\",\"computeUnits\":-1}", "computeUnits");
            assertError(device, 400, "{\"op\":\"send\",\"ref\":1,\"message\":{\"receivers\":[\"" + witness + "\"]}}", "performative");
            assertError(device, 404, "{\"op\":\"send\",\"ref\":2,\"message\":{\"performative\":\"INFORM\",\"receivers\":[\"nobody@siebog\"]}}",
                    "nobody");
            assertError(device, 403, "{\"op\":\"send\",\"ref\":3,\"message\":{\"performative\":\"INFORM\",\"sender\":\"" + othersAgent
                    + "\",\"receivers\":[\"" + witness + "\"]}}", "does not host");
            assertError(device, 403, "{\"op\":\"send\",\"ref\":4,\"message\":{\"performative\":\"INFORM\",\"sender\":\"" + witness
                    + "\",\"receivers\":[\"" + witness + "\"]}}", "does not host");
            assertError(device, 403, "{\"op\":\"ack\",\"aid\":\"" + othersAgent + "\",\"seq\":1}", "does not host");
            assertError(device, 403, "{\"op\":\"started\",\"aid\":\"" + othersAgent + "\"}", "does not host");
            assertError(device, 403, "{\"op\":\"stopAgent\",\"ref\":6,\"aid\":\"" + othersAgent + "\"}", "does not host");
            assertError(device, 403, "{\"op\":\"stopAgent\",\"ref\":7,\"aid\":\"" + witness + "\"}", "does not host");
            assertError(device, 404, "{\"op\":\"stopAgent\",\"ref\":8,\"aid\":\"nobody@siebog\"}", "nobody");
            assertError(device, 400, "{\"op\":\"spawn\",\"ref\":5,\"agentClass\":\"NoSuchClass\",\"name\":\"n\"}", "NoSuchClass");

            assertTrue(device.isOpen());
            assertEquals(agentsBefore.keySet(), siebog.agents().keySet());
            assertEquals(other.id(), siebog.agents().get(othersAgent).getString("location"));
            SiebogApi.sleep(200);
            assertEquals(List.of(), siebog.records(recorderName).messages());
        }
    }

    private static void assertError(TestDevice device, int status, String frame, String mentions) {
        device.send(frame);
        JsonObject error = device.next("error");
        assertEquals(status, error.getInt("status"), error::toString);
        assertTrue(error.getString("error").contains(mentions), () -> "'" + error.getString("error") + "' should mention " + mentions);
        assertNotEquals("", error.getString("error"));
    }
}
