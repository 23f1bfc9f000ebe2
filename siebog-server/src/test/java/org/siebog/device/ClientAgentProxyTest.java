package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Performative;
import org.siebog.state.SavedState;

/**
 * A proxy being stopped must never be placed again: the device sweep re-places proxies without a
 * device, and a stopped one has none. Found by the browser tests (an agent listed after its DELETE).
 */
class ClientAgentProxyTest {

    private final List<String> pushed = new ArrayList<>();
    private final ClientAgentProxy proxy = new ClientAgentProxy(AID.parse("echo@siebog"), "Echo", "/siebog/agents/Echo.js",
            Map.of("k", "v"), "d-00000001", (device, frame) -> pushed.add(device + " " + frame),
            aid -> CompletableFuture.completedFuture(SavedState.NONE));

    @Test
    void aStartIsOverdueOnceTheDeadlineReadWhenItWasSentHasPassed() {
        System.setProperty("siebog.device.start-timeout-ms", "2000");
        try {
            proxy.launch("d-00000001", SavedState.NONE);
        } finally {
            System.clearProperty("siebog.device.start-timeout-ms");
        }
        long sent = System.currentTimeMillis();
        assertFalse(proxy.startOverdue(sent + 1_000));
        assertTrue(proxy.startOverdue(sent + 2_500), "2 s, not the default 10 s");
        proxy.started("d-00000001");
        assertFalse(proxy.startOverdue(sent + 60_000), "an agent that started is never overdue");
    }

    @Test
    void runsPlacementActionsWhileNotStopped() {
        AtomicInteger runs = new AtomicInteger();
        assertTrue(proxy.unlessStopped(runs::incrementAndGet));
        assertEquals(1, runs.get());
        assertFalse(proxy.stopped());
    }

    @Test
    void aStoppedProxyIsNeverPlacedAgain() {
        proxy.launch("d-00000001", SavedState.NONE);
        proxy.stop(null);
        assertTrue(proxy.stopped());
        assertNull(proxy.device(), "a stopped proxy has no device, like one waiting for a device");
        assertTrue(pushed.get(pushed.size() - 1).startsWith("d-00000001 ") && pushed.get(pushed.size() - 1).contains("\"stop\""),
                "its device was told to stop it: " + pushed);

        int framesBefore = pushed.size();
        AtomicInteger runs = new AtomicInteger();
        assertFalse(proxy.unlessStopped(() -> {
            runs.incrementAndGet();
            proxy.launch("d-00000002", SavedState.NONE);
        }));
        assertEquals(0, runs.get(), "no directory update, no start frame after the stop");
        assertEquals(framesBefore, pushed.size());
    }

    @Test
    void theStartFrameCarriesTheSavedStateAndItsVersion() {
        proxy.launch("d-00000001", new SavedState(3, "{\"done\":[1,2],\"note\":\"é \\\"q\\\"\"}"));

        String frame = pushed.get(0).substring("d-00000001 ".length());
        JsonObject start = Json.createReader(new StringReader(frame)).readObject();
        assertEquals("start", start.getString("op"));
        assertEquals(3, start.getInt("version"));
        assertEquals("v", start.getJsonObject("args").getString("k"));
        assertEquals(2, start.getJsonObject("state").getJsonArray("done").getInt(1));
        assertEquals("é \"q\"", start.getJsonObject("state").getString("note"));
    }

    @Test
    void anAgentThatNeverSavedStartsWithNullStateAtVersionZero() {
        proxy.launch("d-00000001", SavedState.NONE);

        JsonObject start = Json.createReader(new StringReader(pushed.get(0).substring(11))).readObject();
        assertEquals(0, start.getInt("version"));
        assertEquals(JsonValue.NULL, start.get("state"));
    }

    @Test
    void aStoppedProxyLaunchesNothing() {
        proxy.stop(null);
        pushed.clear();

        assertTrue(proxy.launch("d-00000002", SavedState.NONE).isCompletedExceptionally());
        assertEquals(List.of(), pushed);
    }

    private static ACLMessage inform(String content) {
        return ACLMessage.builder(Performative.INFORM).receiver(AID.parse("echo@siebog")).content(content).build();
    }

    private List<String> delivered() {
        return pushed.stream().filter(f -> f.contains("\"op\":\"deliver\"")).toList();
    }

    @Test
    void deliveriesBeyondTheWindowWaitForTheDevicesAcknowledgementsAndGoInOrder() {
        proxy.launch("d-00000001", SavedState.NONE);
        proxy.started("d-00000001");
        String content = "x".repeat(ClientAgentProxy.DELIVERY_WINDOW_CHARS / 3);
        for (int i = 0; i < 7; i++) {
            proxy.handle(null, inform(content));
        }
        assertEquals(2, delivered().size(), "two fit in the window (a third would pass it), five wait");

        proxy.acknowledged("d-00000001", 1);
        assertEquals(3, delivered().size());
        proxy.acknowledged("d-00000001", 3);
        assertEquals(5, delivered().size());
        for (int i = 0; i < 5; i++) {
            assertTrue(delivered().get(i).contains("\"seq\":" + (i + 1) + ","), delivered().get(i).substring(0, 60));
        }
    }

    @Test
    void aDeliveryLargerThanTheWindowStillGoesWhenNothingElseIsUnacknowledged() {
        proxy.launch("d-00000001", SavedState.NONE);
        proxy.started("d-00000001");
        proxy.handle(null, inform("y".repeat(ClientAgentProxy.DELIVERY_WINDOW_CHARS + 1)));
        proxy.handle(null, inform("small"));
        assertEquals(1, delivered().size());
        proxy.acknowledged("d-00000001", 1);
        assertEquals(2, delivered().size());
    }

    @Test
    void aNewDeviceGetsTheUnacknowledgedBacklogWithinTheWindowToo() {
        proxy.launch("d-00000001", SavedState.NONE);
        proxy.started("d-00000001");
        String content = "z".repeat(ClientAgentProxy.DELIVERY_WINDOW_CHARS / 3);
        for (int i = 0; i < 4; i++) {
            proxy.handle(null, inform(content));
        }
        proxy.detach();
        pushed.clear();
        proxy.launch("d-00000002", SavedState.NONE);
        proxy.started("d-00000002");
        assertEquals(2, delivered().size());
        assertTrue(delivered().stream().allMatch(f -> f.startsWith("d-00000002 ")));
        assertTrue(delivered().get(0).contains("\"seq\":1,"));
    }
}
