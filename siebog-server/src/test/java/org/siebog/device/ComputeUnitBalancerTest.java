package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ComputeUnitBalancerTest {

    private static final List<Device> DEVICES = List.of(
            new Device("d-1", "node1", 10, ""),
            new Device("d-2", "node1", 30, ""),
            new Device("d-3", "node2", 60, ""));

    /** Four devices with ten units and one claiming a million. */
    private static final List<Device> WITH_A_GREEDY_ONE = List.of(
            new Device("d-1", "node1", 10, ""), new Device("d-2", "node1", 10, ""), new Device("d-3", "node1", 10, ""),
            new Device("d-4", "node1", 10, ""), new Device("d-g", "node1", 1_000_000, ""));

    private static ComputeUnitBalancer balancer(long seed) {
        return new ComputeUnitBalancer(new Random(seed), Map::of);
    }

    @AfterEach
    void clearShare() {
        System.clearProperty("siebog.device.max-share");
    }

    @Test
    void placesInProportionToComputeUnits() {
        ComputeUnitBalancer balancer = balancer(42);
        int n = 30_000;
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge(balancer.select(DEVICES, 0).orElseThrow().id(), 1, Integer::sum);
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
        ComputeUnitBalancer a = balancer(7);
        ComputeUnitBalancer b = balancer(7);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.select(WITH_A_GREEDY_ONE, 0), b.select(WITH_A_GREEDY_ONE, 0));
        }
    }

    @Test
    void aDeviceWithNoComputeUnitsIsNeverChosen() {
        List<Device> devices = List.of(new Device("d-1", "node1", 0, ""), new Device("d-2", "node1", 5, ""));
        ComputeUnitBalancer balancer = balancer(1);
        for (int i = 0; i < 1_000; i++) {
            assertEquals("d-2", balancer.select(devices, 0).orElseThrow().id());
        }
    }

    @Test
    void aDeviceThatMissedAStartDeadlineIsLeftOutUntilItsBackoffEnds() {
        List<Device> devices = List.of(new Device("d-1", "node1", 1_000_000, "").skippedUntil(5_000), new Device("d-2", "node1", 1, ""));
        ComputeUnitBalancer balancer = balancer(3);
        for (int i = 0; i < 1_000; i++) {
            assertEquals("d-2", balancer.select(devices, 4_999).orElseThrow().id());
        }
        assertEquals("d-1", balancer.select(devices, 5_000).orElseThrow().id(), "a million units to one, once the backoff is over");
        assertTrue(balancer.select(List.of(devices.get(0)), 4_999).isEmpty(), "no choice while every device is left out");
    }

    @Test
    void noDevicesMeansNoChoice() {
        assertTrue(balancer(1).select(List.of(), 0).isEmpty());
    }

    // --- the share ----------------------------------------------------------------------------------

    @Test
    void amongFourOrMoreNoDeviceGetsMoreThanAQuarterWhateverItsUnits() {
        for (int n : new int[] {1, 3, 4, 7, 20, 101, 1_000}) {
            ComputeUnitBalancer balancer = balancer(n);
            Map<String, Long> got = new HashMap<>();
            for (int i = 0; i < n; i++) {
                got.merge(balancer.select(WITH_A_GREEDY_ONE, 0).orElseThrow().id(), 1L, Long::sum);
                long placed = i + 1;
                got.forEach((id, c) -> assertTrue(c <= Math.ceil(placed / 4.0), id + " holds " + c + " of " + placed + ": " + got));
            }
            assertEquals((long) Math.ceil(n / 4.0), got.get("d-g"), "the greedy device fills its share and no more, n = " + n);
        }
    }

    @Test
    void theShareCountsTheAgentsDevicesAlreadyHold() {
        // d-g holds 10 of 30 already: over a quarter, so the next agents go elsewhere until it is within it.
        Map<String, Long> hosted = Map.of("d-1", 5L, "d-2", 5L, "d-3", 5L, "d-4", 5L, "d-g", 10L);
        ComputeUnitBalancer balancer = new ComputeUnitBalancer(new Random(5), () -> hosted);
        List<String> chosen = IntStream.range(0, 10).mapToObj(i -> balancer.select(WITH_A_GREEDY_ONE, 0).orElseThrow().id()).toList();
        assertEquals(List.of(), chosen.stream().filter("d-g"::equals).toList(), "10 of 40 is a quarter: nothing more for d-g " + chosen);
        assertEquals("d-g", balancer.select(WITH_A_GREEDY_ONE, 0).orElseThrow().id(), "11 of 41 is within ⌈41/4⌉");
    }

    @Test
    void theDirectoryIsReadAtMostOnceASecondAndPlacementsCountedMeanwhile() {
        AtomicInteger reads = new AtomicInteger();
        ComputeUnitBalancer balancer = new ComputeUnitBalancer(new Random(9), () -> {
            reads.incrementAndGet();
            return Map.of();
        });
        List<String> chosen = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            chosen.add(balancer.select(WITH_A_GREEDY_ONE, 10_000 + i).orElseThrow().id());
        }
        assertEquals(1, reads.get());
        assertEquals(2, chosen.stream().filter("d-g"::equals).count(), "counted forward without a read: " + chosen);
        balancer.select(WITH_A_GREEDY_ONE, 11_000);
        assertEquals(2, reads.get());
    }

    @Test
    void withFewerDevicesThanTheShareAllowsUnitsAloneDecide() {
        List<Device> three = List.of(WITH_A_GREEDY_ONE.get(0), WITH_A_GREEDY_ONE.get(1), WITH_A_GREEDY_ONE.get(4));
        ComputeUnitBalancer balancer = balancer(11);
        for (int i = 0; i < 50; i++) {
            assertEquals("d-g", balancer.select(three, 0).orElseThrow().id(), "three devices cannot each hold at most a quarter");
        }
    }

    @Test
    void theShareIsAProperty() {
        System.setProperty("siebog.device.max-share", "0.5");
        List<Device> two = List.of(WITH_A_GREEDY_ONE.get(0), WITH_A_GREEDY_ONE.get(4));
        ComputeUnitBalancer balancer = balancer(13);
        List<String> chosen = IntStream.range(0, 10).mapToObj(i -> balancer.select(two, 0).orElseThrow().id()).toList();
        assertEquals(5, chosen.stream().filter("d-g"::equals).count(), "half of ten with 0.5 and two devices: " + chosen);

        System.setProperty("siebog.device.max-share", "1");
        ComputeUnitBalancer unshared = balancer(13);
        assertTrue(IntStream.range(0, 20).allMatch(i -> unshared.select(WITH_A_GREEDY_ONE, 0).orElseThrow().id().equals("d-g")),
                "1 turns the rule off");

        System.setProperty("siebog.device.max-share", "-3");
        ComputeUnitBalancer defaulted = balancer(13);
        long greedy = IntStream.range(0, 20).filter(i -> defaulted.select(WITH_A_GREEDY_ONE, 0).orElseThrow().id().equals("d-g")).count();
        assertEquals(5, greedy, "an invalid share falls back to 0.25");
    }

    @Test
    void whileTheRuleHoldsSomeDeviceIsAlwaysWithinItsShare() {
        Random random = new Random(17);
        for (int trial = 0; trial < 10_000; trial++) {
            int k = 1 + random.nextInt(8);
            double share = 0.05 + random.nextDouble() * 0.95;
            List<Device> devices = new ArrayList<>();
            Map<String, Long> hosted = new HashMap<>();
            for (int i = 0; i < k; i++) {
                devices.add(new Device("d-" + i, "node1", 1, ""));
                hosted.put("d-" + i, (long) random.nextInt(50));
            }
            List<Device> within = ComputeUnitBalancer.withinShare(devices, hosted, share);
            String context = k + " devices, share " + share + ", " + hosted + ": " + within;
            assertTrue(!within.isEmpty(), context);
            if (k * share >= 1) {
                // Every device offered is within its share, so none was offered only because nothing else was.
                long total = hosted.values().stream().mapToLong(Long::longValue).sum();
                within.forEach(d -> assertTrue(hosted.get(d.id()) + 1 <= Math.ceil(share * (total + 1) - 1e-9), context));
            }
        }
    }
}
