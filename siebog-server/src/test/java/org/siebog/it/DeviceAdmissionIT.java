package org.siebog.it;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Who may join as a device, and what a joined device may not make the node do (docs/device-protocol.md,
 * "Admission"): every refusal's status or close code and message, and that it changes nothing. The
 * settings under test are system properties the node reads when it uses them, set per test through
 * the management API ({@link ServerProperties}).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DeviceAdmissionIT {

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    @ArquillianResource
    private ManagementClient management;

    private final SiebogApi siebog = SiebogApi.testServer();

    // --- the handshake's Origin ----------------------------------------------------------------------

    private record Handshake(int status, String body) {
        JsonObject json() {
            return Json.createReader(new StringReader(body)).readObject();
        }
    }

    /** A device handshake as a page of {@code origin} sends it (a program sends none: null). */
    private Handshake handshake(String origin) {
        URI api = siebog.uri("");
        try (Socket socket = new Socket(api.getHost(), api.getPort())) {
            socket.setSoTimeout(10_000);
            String request = "GET /siebog/ws/device HTTP/1.1\r\n"
                    + "Host: " + api.getHost() + ":" + api.getPort() + "\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + (origin == null ? "" : "Origin: " + origin + "\r\n") + "\r\n";
            socket.getOutputStream().write(request.getBytes(US_ASCII));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int status = Integer.parseInt(line(in).split(" ")[1]);
            int length = 0;
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(header.substring("content-length:".length()).trim());
                }
            }
            byte[] body = new byte[status == 101 ? 0 : length];
            in.readFully(body);
            return new Handshake(status, new String(body, UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String line(DataInputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the connection ended inside the response's head: " + line);
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private String ownOrigin() {
        URI api = siebog.uri("");
        return "http://" + api.getHost() + ":" + api.getPort();
    }

    @Test
    void aPageOfAnotherOriginIsRefusedWith403() {
        Handshake refused = handshake("http://evil.example");
        assertEquals(403, refused.status(), refused::toString);
        String error = refused.json().getString("error");
        assertTrue(error.contains("'http://evil.example'") && error.contains("siebog.device.allowed-origins"), error);

        Handshake otherPort = handshake("http://127.0.0.1:1");
        assertEquals(403, otherPort.status(), otherPort::toString);

        Handshake huge = handshake("http://" + "x".repeat(6_000) + ".example");
        assertEquals(403, huge.status());
        assertTrue(huge.body().length() < 400, "the refusal quotes a short prefix of the origin: " + huge.body().length() + " chars");
    }

    @Test
    void theNodesOwnPagesAndProgramsWithoutAnOriginAreAdmitted() {
        assertEquals(101, handshake(ownOrigin()).status());
        assertEquals(101, handshake(null).status());
    }

    @Test
    void originsListedInThePropertyAreAdmitted() {
        try (ServerProperties properties = new ServerProperties(management)) {
            properties.set("siebog.device.allowed-origins", "https://lab.example.org, http://10.1.2.3:8000");
            assertEquals(101, handshake("https://lab.example.org").status());
            assertEquals(101, handshake("http://10.1.2.3:8000").status());
            assertEquals(101, handshake(ownOrigin()).status(), "the node's own pages still");
            assertEquals(403, handshake("https://other.example.org").status());

            properties.set("siebog.device.allowed-origins", "*");
            assertEquals(101, handshake("https://other.example.org").status());
        }
        assertEquals(403, handshake("https://lab.example.org").status(), "the property is read at each handshake");
    }

    // --- the join token ---------------------------------------------------------------------------------

    private static JsonObject join(String label, String token) {
        var frame = Json.createObjectBuilder().add("op", "join").add("computeUnits", 10).add("label", label);
        return (token == null ? frame : frame.add("token", token)).build();
    }

    private boolean listedWithLabel(String label) {
        return siebog.get("devices").array().stream().map(JsonObject.class::cast).anyMatch(d -> d.getString("label").equals(label));
    }

    private void assertJoinRefused(String token, String mentions) {
        try (TestDevice device = TestDevice.open(siebog)) {
            device.send(join("refused-join", token));
            JsonObject error = device.next("error");
            assertEquals(403, error.getInt("status"), error::toString);
            assertTrue(error.getString("error").contains(mentions), error::toString);
            assertFalse(error.containsKey("ref"));
            assertEquals(1008, device.closeCode());
        }
    }

    @Test
    void withAJoinTokenSetAJoinWithoutItOrWithAnotherIsRefusedAndNothingIsRegistered() {
        try (ServerProperties properties = new ServerProperties(management)) {
            properties.set("siebog.device.join-token", "lab-7f3a");
            assertJoinRefused(null, "needs a 'token'");
            assertJoinRefused("lab-7f3b", "not this node's");
            assertFalse(listedWithLabel("refused-join"), "a refused device is never listed");

            try (TestDevice admitted = TestDevice.open(siebog)) {
                admitted.send(join("token-shown", "lab-7f3a"));
                String id = admitted.welcome().getString("device");
                assertTrue(listedWithLabel("token-shown"), id);
            }
        }
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            assertTrue(device.id().startsWith("d-"), "with the property removed, joins need no token again");
        }
    }

    // --- compute units: measured, not claimed -----------------------------------------------------------

    private JsonObject listedDevice(String id) {
        return siebog.get("devices").array().stream().map(JsonObject.class::cast).filter(d -> d.getString("id").equals(id)).findFirst()
                .orElse(null);
    }

    private static JsonObject challengeAfterJoin(TestDevice device, String label) {
        device.send(join(label, null));
        JsonObject challenge = device.next("challenge");
        assertTrue(challenge.getString("seed").matches("[0-9a-f]{32}"), challenge::toString);
        assertEquals(64, challenge.getInt("puzzles"));
        assertEquals(12, challenge.getInt("zeroBits"));
        return challenge;
    }

    @Test
    void aDeviceGetsTheUnitsItsAnswerShowsNotThoseItClaims() {
        try (TestDevice device = TestDevice.open(siebog); TestDevice other = TestDevice.open(siebog)) {
            device.send(Json.createObjectBuilder().add("op", "join").add("computeUnits", 1_000_000).add("label", "claims-a-million").build());
            JsonObject challenge = device.next("challenge");
            assertFalse(listedWithLabel("claims-a-million"), "not listed before it answers");
            JsonObject otherChallenge = challengeAfterJoin(other, "other");
            assertFalse(challenge.getString("seed").equals(otherChallenge.getString("seed")), "a fresh seed for every join");

            SiebogApi.sleep(1_000); // a device as slow as this gets no more than 2^18 hashes a second: 262 units
            device.send(TestDevice.solution(challenge));
            JsonObject welcome = device.next("welcome");
            double units = welcome.getJsonNumber("computeUnits").doubleValue();
            assertTrue(units > 0 && units <= 262.15, "measured " + units + " units, whatever it claimed");
            assertEquals(units, listedDevice(welcome.getString("device")).getJsonNumber("computeUnits").doubleValue());

            // A later claim is ignored too.
            device.send("{\"op\":\"computeUnits\",\"computeUnits\":1000000}");
            SiebogApi.sleep(300);
            assertEquals(units, listedDevice(welcome.getString("device")).getJsonNumber("computeUnits").doubleValue());
        }
    }

    @Test
    void theMeasuredUnitsAreCappedByTheProperty() {
        try (ServerProperties properties = new ServerProperties(management)) {
            properties.set("siebog.device.max-compute-units", "5");
            try (TestDevice device = TestDevice.open(siebog)) {
                JsonObject challenge = challengeAfterJoin(device, "capped");
                device.send(TestDevice.solution(challenge)); // this JVM hashes far faster than 5,000 a second
                assertEquals(5, device.next("welcome").getJsonNumber("computeUnits").doubleValue());
            }
        }
    }

    @Test
    void aWrongAnswerRefusesTheJoinWith403And1008AndRegistersNothing() {
        try (TestDevice device = TestDevice.open(siebog)) {
            challengeAfterJoin(device, "wrong-answer");
            var zeros = Json.createArrayBuilder();
            for (int i = 0; i < 64; i++) {
                zeros.add(0);
            }
            device.send(Json.createObjectBuilder().add("op", "solution").add("nonces", zeros).build());
            JsonObject error = device.next("error");
            assertEquals(403, error.getInt("status"), error::toString);
            assertFalse(error.containsKey("ref"));
            assertTrue(error.getString("error").contains("compute-unit challenge is wrong") && error.getString("error").contains("nonce "),
                    error::toString);
            assertEquals(1008, device.closeCode());
        }
        try (TestDevice device = TestDevice.open(siebog)) {
            challengeAfterJoin(device, "wrong-answer");
            device.send("{\"op\":\"solution\",\"nonces\":\"42\"}");
            JsonObject error = device.next("error");
            assertEquals(403, error.getInt("status"), error::toString);
            assertTrue(error.getString("error").contains("'nonces' must be an array of 64 integers"), error::toString);
            assertEquals(1008, device.closeCode());
        }
        try (TestDevice device = TestDevice.open(siebog)) {
            challengeAfterJoin(device, "wrong-answer");
            device.send(join("wrong-answer", null));
            JsonObject again = device.next("error");
            assertEquals(409, again.getInt("status"), again::toString);
            assertTrue(again.getString("error").contains("already joining"), again::toString);
            device.send("{\"op\":\"heartbeat\"}"); // anything but the answer, before joining
            assertEquals(4001, device.closeCode());
        }
        assertFalse(listedWithLabel("wrong-answer"), "a refused device is never listed");
    }

    @Test
    void whereClaimsAreTrustedAClaimIsTakenAndAJoinWithoutOneIsMeasured() {
        try (ServerProperties properties = new ServerProperties(management)) {
            properties.set("siebog.device.trust-claimed-compute-units", "true");
            try (TestDevice claimed = TestDevice.open(siebog); TestDevice unclaimed = TestDevice.open(siebog)) {
                claimed.send(join("trusted", null));
                assertEquals(10, claimed.next("welcome").getJsonNumber("computeUnits").doubleValue(), "no challenge: the claim is taken");
                unclaimed.send("{\"op\":\"join\",\"label\":\"unclaimed\"}");
                unclaimed.send(TestDevice.solution(unclaimed.next("challenge")));
                assertTrue(unclaimed.next("welcome").getJsonNumber("computeUnits").doubleValue() > 0);
            }
        }
    }

    // --- the outbox ---------------------------------------------------------------------------------------

    private static final AtomicInteger NAMES = new AtomicInteger();

    private static String name(String prefix) {
        return prefix + "-" + NAMES.incrementAndGet();
    }

    private boolean listed(String deviceId) {
        return siebog.get("devices").array().stream().map(JsonObject.class::cast).anyMatch(d -> d.getString("id").equals(deviceId));
    }

    @Test
    void aDeviceThatAsksAndDoesNotReadIsClosedAtItsOutboxBoundAndItsAgentsMove() {
        try (ServerProperties properties = new ServerProperties(management)) {
            properties.set("siebog.device.max-outbox-bytes", "65536");
            try (TestDevice slow = TestDevice.join(siebog, 10)) {
                String agent = slow.startClientAgent(siebog, "TestClient", name("unread")).getString("aid");
                String state = "\"" + "s".repeat(60_000) + "\"";
                slow.send("{\"op\":\"saveState\",\"ref\":1,\"aid\":\"" + agent + "\",\"version\":0,\"state\":" + state + "}");
                assertEquals(1, slow.next("stateSaved").getInt("version"));

                // Each answer carries the 60 KB state; the device reads none of them.
                slow.stopReading();
                int asked = 0;
                try {
                    while (asked < 5_000 && listed(slow.id())) {
                        for (int i = 0; i < 20; i++) {
                            slow.send("{\"op\":\"loadState\",\"ref\":" + (100 + asked++) + ",\"aid\":\"" + agent + "\"}");
                        }
                    }
                } catch (RuntimeException socketGone) {
                    // the node may end the connection while frames are still going out
                }
                SiebogApi.await("the device that does not read is no longer listed", () -> !listed(slow.id()));
                assertTrue(asked < 5_000, "closed after " + asked + " requests");

                try (TestDevice other = TestDevice.join(siebog, 10)) {
                    JsonObject start = other.startAgent();
                    assertEquals(agent, start.getString("aid"), "its agent moved to the device that reads");
                    assertEquals(1, start.getInt("version"));
                }
                slow.resumeReading();
                assertEquals(1013, slow.closeCode());
            } finally {
                siebog.stopAll("TestClient");
            }
        }
    }

    // --- error frames ----------------------------------------------------------------------------------

    @Test
    void anErrorFrameQuotesOnlyAShortPrefixOfWhatItRefuses() {
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            device.send("{\"op\":\"" + "x".repeat(200_000) + "\"}");
            JsonObject error = device.next("error");
            assertEquals(400, error.getInt("status"));
            assertTrue(error.getString("error").startsWith("unknown op 'xxxx"), error.getString("error"));
            assertTrue(error.toString().length() < 500, "an answer of " + error.toString().length() + " characters");

            device.send("{\"op\":\"spawn\",\"ref\":2,\"agentClass\":\"" + "Y".repeat(100_000) + "\",\"name\":\"n\"}");
            JsonObject unknownClass = device.next("error");
            assertEquals(400, unknownClass.getInt("status"), unknownClass::toString);
            assertTrue(unknownClass.toString().length() < 500, "an answer of " + unknownClass.toString().length() + " characters");
        }
    }

    // --- the frame rate --------------------------------------------------------------------------------

    @Test
    void framesOverTheRateAreRefusedWith429AndChangeNothingAndADeviceThatKeepsGoingIsClosed() {
        String recorderName = name("rate-witness");
        String witness = siebog.startAgent("Recorder", recorderName);
        try (ServerProperties properties = new ServerProperties(management)) {
            properties.set("siebog.device.max-frames-per-second", "1").set("siebog.device.frame-burst", "5")
                    .set("siebog.device.max-refused-frames", "20");
            try (TestDevice device = TestDevice.open(siebog)) {
                device.send(join("fast", null)); // the join and its challenge's solution are the burst's first frames
                String id = device.welcome().getString("device");
                for (int i = 0; i < 9; i++) {
                    device.send("{\"op\":\"heartbeat\"}");
                }
                device.send(Json.createObjectBuilder().add("op", "send").add("ref", 77).add("message",
                        SiebogApi.message("INFORM").to(witness).content("over the rate").json()).build());

                // Answered heartbeats are skipped by TestDevice.next: the errors are the refusals.
                int refusedHeartbeats = 0;
                JsonObject error = device.next("error");
                while (!error.containsKey("ref")) {
                    assertEquals(429, error.getInt("status"), error::toString);
                    assertTrue(error.getString("error").contains("1 a second (5 at once)"), error::toString);
                    refusedHeartbeats++;
                    error = device.next("error");
                }
                assertTrue(refusedHeartbeats >= 3, refusedHeartbeats + " of 9 heartbeats refused after a burst of 5 (the join and solution were two)");
                assertEquals(429, error.getInt("status"), error::toString);
                assertEquals(77, error.getInt("ref"), "the refused request's ref");
                assertTrue(error.getString("error").contains("'send' was not acted on"), error::toString);
                assertTrue(device.isOpen());

                try {
                    for (int i = 0; i < 30 && device.isOpen(); i++) {
                        device.send("{\"op\":\"heartbeat\"}");
                    }
                } catch (RuntimeException closedMeanwhile) {
                    // the close can overtake the last sends
                }
                assertEquals(1008, device.closeCode());
                SiebogApi.await("the device closed for its rate is no longer listed", () -> !listed(id));
            }
        }
        SiebogApi.sleep(200);
        assertEquals(java.util.List.of(), siebog.records(recorderName).messages(), "the refused send was not delivered");
    }

    // --- spawn ---------------------------------------------------------------------------------------------

    private static JsonObject spawn(int ref, String agentClass, String name, String device) {
        var frame = Json.createObjectBuilder().add("op", "spawn").add("ref", ref).add("agentClass", agentClass).add("name", name);
        return (device == null ? frame : frame.add("device", device)).build();
    }

    @Test
    void aDeviceMayNotPlaceAgentsOnAnotherDevice() {
        try (TestDevice device = TestDevice.join(siebog, 10); TestDevice other = TestDevice.join(siebog, 10)) {
            String name = name("elsewhere");
            device.send(spawn(1, "TestClient", name, other.id()));
            JsonObject error = device.next("error");
            assertEquals(403, error.getInt("status"), error::toString);
            assertEquals(1, error.getInt("ref"));
            assertTrue(error.getString("error").contains("only on itself") && error.getString("error").contains(other.id()), error::toString);
            SiebogApi.sleep(300);
            assertFalse(siebog.agents().containsKey(SiebogApi.aid(name)), "nothing started");
            assertEquals("", other.pendingOps(), "the other device was asked nothing");
        }
    }

    @Test
    void aDeviceMaySpawnOnlyTheClassesThePropertyLists() {
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            String name = name("server-agent");
            device.send(spawn(1, "Recorder", name, null));
            JsonObject error = device.next("error");
            assertEquals(403, error.getInt("status"), error::toString);
            assertTrue(error.getString("error").contains("Recorder") && error.getString("error").contains("siebog.device.spawnable-classes"),
                    error::toString);
            assertFalse(siebog.agents().containsKey(SiebogApi.aid(name)), "nothing started");

            try (ServerProperties properties = new ServerProperties(management)) {
                properties.set("siebog.device.spawnable-classes", "kind:client, Recorder");
                device.send(spawn(2, "Recorder", name, null));
                assertEquals(SiebogApi.aid(name), device.next("spawned").getString("aid"));
            } finally {
                siebog.delete("agents/" + SiebogApi.aid(name));
            }
        }
    }
}
