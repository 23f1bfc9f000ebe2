package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Reply;

/**
 * Where client agents go when a device is greedy or dishonest (docs/device-protocol.md, "Placement
 * on devices"): a device that does not answer {@code start} in time is skipped and the agent goes
 * elsewhere, and no device gets more than its share of placements, whatever compute units it has.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DevicePlacementIT {

    private static final AtomicInteger NAMES = new AtomicInteger();
    /** Far more than every honest device together: without the rules below, it would get nearly everything. */
    private static final double HUGE = 1_000_000;

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

    /** The devices here claim their units (a greedy one a million): the node takes claims for these tests. */
    private ServerProperties trustClaims;

    /** Placement weighs every joined device: start each test with none but its own. */
    @BeforeEach
    void noOtherDevices() {
        SiebogApi.await("the other tests' devices have left", () -> siebog.get("devices").array().isEmpty());
        trustClaims = new ServerProperties(management).set("siebog.device.trust-claimed-compute-units", "true");
    }

    @AfterEach
    void stopClientAgents() {
        siebog.stopAll("TestClient");
        trustClaims.close();
    }

    private Reply startAnywhere(String name) {
        return siebog.post("agents", Json.createObjectBuilder().add("agentClass", "TestClient").add("name", name).build().toString());
    }

    private String locationOf(String aid) {
        JsonObject agent = siebog.agents().get(aid);
        return agent == null ? null : agent.getString("location");
    }

    // --- the start deadline ---------------------------------------------------------------------------

    @Test
    void aStartThatTimesOutIsA504ThatStartsNothingAndTheDeviceIsSkippedAfterwards() {
        try (ServerProperties properties = new ServerProperties(management);
                TestDevice honest = TestDevice.join(siebog, 1).answeringStarts();
                TestDevice mute = TestDevice.join(siebog, HUGE)) {
            properties.set("siebog.device.start-timeout-ms", "2000").set("siebog.device.start-backoff-ms", "60000");
            String name = name("unanswered");
            long began = System.nanoTime();
            Reply timedOut = startAnywhere(name);
            long tookMs = (System.nanoTime() - began) / 1_000_000;
            String error = timedOut.assertError(504);
            assertTrue(error.contains(mute.id()) && error.contains("did not start") && error.contains("siebog.device.start-backoff-ms"),
                    error);
            assertTrue(tookMs >= 2_000 && tookMs < 9_000, "answered after " + tookMs + " ms, at the 2 s deadline");
            assertFalse(siebog.agents().containsKey(SiebogApi.aid(name)), "nothing is left of the agent that did not start");
            assertEquals(SiebogApi.aid(name), mute.next("start").getString("aid"));
            assertEquals(SiebogApi.aid(name), mute.next("stop").getString("aid"), "the device was told to drop it");

            // Skipped: new agents go to the honest device at once, however many units the other claims.
            for (int i = 0; i < 5; i++) {
                Reply started = startAnywhere(name("after-504"));
                assertEquals(201, started.status(), started::toString);
                assertEquals(honest.id(), started.object().getString("location"));
            }
            assertEquals("", mute.pendingOps(), "the skipped device was offered nothing more");
        }
    }

    @Test
    void withEveryDeviceLeftOutANewAgentIsA503AndAStartASpawnWaitsOnTimesOutAsAn504Frame() {
        try (ServerProperties properties = new ServerProperties(management);
                TestDevice mute = TestDevice.join(siebog, 10)) {
            properties.set("siebog.device.start-timeout-ms", "1500").set("siebog.device.start-backoff-ms", "60000");
            // Its own spawn onto itself: the device's request is answered with the 504 as an error frame.
            String name = name("spawned-unanswered");
            mute.send(Json.createObjectBuilder().add("op", "spawn").add("ref", 9).add("agentClass", "TestClient").add("name", name)
                    .add("device", mute.id()).build());
            assertEquals(SiebogApi.aid(name), mute.next("start").getString("aid"));
            assertEquals(SiebogApi.aid(name), mute.next("stop").getString("aid"));
            JsonObject error = mute.next("error");
            assertEquals(504, error.getInt("status"), error::toString);
            assertEquals(9, error.getInt("ref"));
            assertTrue(error.getString("error").contains("did not start"), error::toString);
            assertFalse(siebog.agents().containsKey(SiebogApi.aid(name)));

            String refusal = startAnywhere(name("nowhere")).assertError(503);
            assertTrue(refusal.contains("missed a start deadline") && refusal.contains("siebog.device.start-backoff-ms"), refusal);
            assertEquals("", mute.pendingOps(), "the device left out was offered nothing");
        }
    }

    @Test
    void anAgentMovingToADeviceThatMissesTheDeadlineGoesToAnotherAtOnceAndNeverBack() {
        try (ServerProperties properties = new ServerProperties(management)) {
            properties.set("siebog.device.start-timeout-ms", "2000").set("siebog.device.start-backoff-ms", "60000");
            TestDevice first = TestDevice.join(siebog, 10);
            String agent = first.startClientAgent(siebog, "TestClient", name("mover")).getString("aid");
            try (TestDevice mute = TestDevice.join(siebog, HUGE); TestDevice honest = TestDevice.join(siebog, 1)) {
                first.vanish();
                assertEquals(agent, mute.next("start").getString("aid"), "its units make the mute device the first choice");
                long offered = System.nanoTime();
                JsonObject start = honest.startAgentWithin(Duration.ofSeconds(8)).orElse(null);
                long afterMs = (System.nanoTime() - offered) / 1_000_000;
                assertTrue(start != null && start.getString("aid").equals(agent), "the honest device got the agent: " + start);
                assertTrue(afterMs < 5_000, "moved on " + afterMs + " ms after the 2 s deadline began");
                assertEquals(agent, mute.next("stop").getString("aid"), "so a late start there leaves no second copy");
                SiebogApi.await("the agent runs on the honest device", () -> honest.id().equals(locationOf(agent)));
                SiebogApi.sleep(3_000); // longer than the deadline: it is not offered to the mute device again
                assertEquals("", mute.pendingOps());
                assertEquals(honest.id(), locationOf(agent));
            }
        }
    }

    // --- the share --------------------------------------------------------------------------------------

    @Test
    void amongFourOrMoreDevicesNoneGetsMoreThanAQuarterOfNewAgentsWhateverItsUnits() {
        List<TestDevice> devices = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                devices.add(TestDevice.join(siebog, 10).answeringStarts());
            }
            TestDevice greedy = TestDevice.join(siebog, HUGE).answeringStarts();
            devices.add(greedy);
            int n = 20;
            List<String> aids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Reply started = startAnywhere(name("shared"));
                assertEquals(201, started.status(), started::toString);
                aids.add(started.object().getString("aid"));
            }
            Map<String, JsonObject> listed = siebog.agents();
            Map<String, Long> perDevice = aids.stream().collect(Collectors.groupingBy(a -> listed.get(a).getString("location"),
                    Collectors.counting()));
            long greedyGot = perDevice.getOrDefault(greedy.id(), 0L);
            assertTrue(greedyGot <= n / 4, "the device with " + (long) HUGE + " units got " + greedyGot + " of " + n + ": " + perDevice);
            assertTrue(greedyGot >= 1, "it still takes its share: " + perDevice);
            perDevice.values().forEach(c -> assertTrue(c <= n / 4, "no device over a quarter: " + perDevice));
        } finally {
            devices.forEach(TestDevice::close);
        }
    }

    @Test
    void withTheShareRaisedTheFastestDeviceMayTakeMore() {
        try (ServerProperties properties = new ServerProperties(management)) {
            properties.set("siebog.device.max-share", "1");
            List<TestDevice> devices = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    devices.add(TestDevice.join(siebog, 1).answeringStarts());
                }
                TestDevice fast = TestDevice.join(siebog, HUGE).answeringStarts();
                devices.add(fast);
                for (int i = 0; i < 8; i++) {
                    Reply started = startAnywhere(name("unshared"));
                    assertEquals(201, started.status(), started::toString);
                    assertEquals(fast.id(), started.object().getString("location"), "placed by units alone");
                }
            } finally {
                devices.forEach(TestDevice::close);
            }
        }
    }
}
