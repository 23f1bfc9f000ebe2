package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.siebog.agent.AID;

/**
 * A proxy being stopped must never be placed again: the device sweep re-places proxies without a
 * device, and a stopped one has none. Found by the browser tests (an agent listed after its DELETE).
 */
class ClientAgentProxyTest {

    private final List<String> pushed = new ArrayList<>();
    private final ClientAgentProxy proxy = new ClientAgentProxy(AID.parse("echo@siebog"), "Echo", "/siebog/agents/Echo.js",
            Map.of(), "d-00000001", (device, frame) -> pushed.add(device + " " + frame));

    @Test
    void runsPlacementActionsWhileNotStopped() {
        AtomicInteger runs = new AtomicInteger();
        assertTrue(proxy.unlessStopped(runs::incrementAndGet));
        assertEquals(1, runs.get());
        assertFalse(proxy.stopped());
    }

    @Test
    void aStoppedProxyIsNeverPlacedAgain() {
        proxy.launch("d-00000001");
        proxy.stop(null);
        assertTrue(proxy.stopped());
        assertNull(proxy.device(), "a stopped proxy has no device, like one waiting for a device");
        assertTrue(pushed.get(pushed.size() - 1).startsWith("d-00000001 ") && pushed.get(pushed.size() - 1).contains("\"stop\""),
                "its device was told to stop it: " + pushed);

        int framesBefore = pushed.size();
        AtomicInteger runs = new AtomicInteger();
        assertFalse(proxy.unlessStopped(() -> {
            runs.incrementAndGet();
            proxy.launch("d-00000002");
        }));
        assertEquals(0, runs.get(), "no directory update, no start frame after the stop");
        assertEquals(framesBefore, pushed.size());
    }
}
