package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

class ComputeUnitBalancerTest {

    private static final List<Device> DEVICES = List.of(
            new Device("d-1", "node1", 10, ""),
            new Device("d-2", "node1", 30, ""),
            new Device("d-3", "node2", 60, ""));

    @Test
    void placesInProportionToComputeUnits() {
        ComputeUnitBalancer balancer = new ComputeUnitBalancer(new Random(42));
        int n = 30_000;
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge(balancer.select(DEVICES).orElseThrow().id(), 1, Integer::sum);
        }
        // Chi-square against the CU shares with 2 degrees of freedom: 13.8 is the 0.1% critical value.
        double chi2 = 0;
        for (Device d : DEVICES) {
            double expected = n * d.computeUnits() / 100.0;
            double diff = counts.getOrDefault(d.id(), 0) - expected;
            chi2 += diff * diff / expected;
        }
        assertTrue(chi2 < 13.8, "chi-square " + chi2 + " for " + counts);
    }

    @Test
    void theSameSeedMakesTheSameChoices() {
        ComputeUnitBalancer a = new ComputeUnitBalancer(new Random(7));
        ComputeUnitBalancer b = new ComputeUnitBalancer(new Random(7));
        for (int i = 0; i < 100; i++) {
            assertEquals(a.select(DEVICES), b.select(DEVICES));
        }
    }

    @Test
    void aDeviceWithNoComputeUnitsIsNeverChosen() {
        List<Device> devices = List.of(new Device("d-1", "node1", 0, ""), new Device("d-2", "node1", 5, ""));
        ComputeUnitBalancer balancer = new ComputeUnitBalancer(new Random(1));
        for (int i = 0; i < 1_000; i++) {
            assertEquals("d-2", balancer.select(devices).orElseThrow().id());
        }
    }

    @Test
    void aDeviceThatMissedAStartDeadlineIsLeftOutUntilItsBackoffEnds() {
        List<Device> devices = List.of(new Device("d-1", "node1", 1_000_000, "").skippedUntil(5_000), new Device("d-2", "node1", 1, ""));
        ComputeUnitBalancer balancer = new ComputeUnitBalancer(new Random(3));
        for (int i = 0; i < 1_000; i++) {
            assertEquals("d-2", balancer.select(devices, 4_999).orElseThrow().id());
        }
        assertEquals("d-1", balancer.select(devices, 5_000).orElseThrow().id(), "a million units to one, once the backoff is over");
        assertTrue(balancer.select(List.of(devices.get(0)), 4_999).isEmpty(), "no choice while every device is left out");
    }

    @Test
    void noDevicesMeansNoChoice() {
        assertTrue(new ComputeUnitBalancer(new Random(1)).select(List.of()).isEmpty());
    }
}
