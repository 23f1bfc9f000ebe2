package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ReachabilityTest {

    private static final long SECOND = 1_000_000_000L;

    /** {@code me}'s knowledge when the nodes it hears sent the probes {@code reports} (each: whom it hears) at {@code at}. */
    private static Reachability at(String me, Map<String, Set<String>> reports, long at) {
        Reachability reachability = new Reachability(me);
        reports.forEach((node, hears) -> reachability.heard(node, hears, at));
        return reachability;
    }

    @Test
    void whenEveryNodeHearsEveryOtherNobodyIsKeptOut() {
        Reachability node1 = at("node1", Map.of("node2", Set.of("node1", "node3"), "node3", Set.of("node1", "node2")), 0);
        assertEquals(Set.of("node2", "node3"), node1.hearing(SECOND));
        assertEquals(Set.of(), node1.toKeepOut(SECOND));
    }

    @Test
    void twoNodesThatDoNotHearEachOtherWhileAThirdHearsBothKeepTheOneThatSortsLastOutOnEveryNode() {
        Map<String, Reachability> nodes = Map.of(
                "node1", at("node1", Map.of("node2", Set.of("node1", "node3")), 0),
                "node2", at("node2", Map.of("node1", Set.of("node2"), "node3", Set.of("node2")), 0),
                "node3", at("node3", Map.of("node2", Set.of("node1", "node3")), 0));
        nodes.forEach((name, node) -> assertEquals(Set.of("node3"), node.toKeepOut(SECOND), name));
    }

    @Test
    void aLinkCutOneWayIsACutLink() {
        // node3's probes to node1 are lost; node1's reach node3.
        Map<String, Reachability> nodes = Map.of(
                "node1", at("node1", Map.of("node2", Set.of("node1", "node3")), 0),
                "node2", at("node2", Map.of("node1", Set.of("node2"), "node3", Set.of("node1", "node2")), 0),
                "node3", at("node3", Map.of("node1", Set.of("node2"), "node2", Set.of("node1", "node3")), 0));
        nodes.forEach((name, node) -> assertEquals(Set.of("node3"), node.toKeepOut(SECOND), name));
    }

    @Test
    void aCleanPartitionKeepsNobodyOutTheQuorumDecidesWhichSideGoesOn() {
        assertEquals(Set.of(), at("node1", Map.of("node2", Set.of("node1")), 0).toKeepOut(SECOND));
        assertEquals(Set.of(), at("node3", Map.of(), 0).toKeepOut(SECOND));
    }

    @Test
    void theNodeWithTheMostFailingLinksGoesFirstSoThatAsManyAsPossibleStay() {
        // node1 hears neither node3 nor node5, every other pair of five hears each other.
        Reachability node2 = at("node2", Map.of(
                "node1", Set.of("node2", "node4"),
                "node3", Set.of("node2", "node4", "node5"),
                "node4", Set.of("node1", "node2", "node3", "node5"),
                "node5", Set.of("node2", "node3", "node4")), 0);
        assertEquals(Set.of("node1"), node2.toKeepOut(SECOND));
    }

    @Test
    void aNodeNoLongerHeardByAnyoneIsNoLongerCounted() {
        // node3 stopped: node2's last probe still said it heard node3, a moment before node2 noticed.
        Reachability node1 = at("node1", Map.of("node2", Set.of("node1", "node3")), 0);
        assertEquals(Set.of("node3"), node1.toKeepOut(SECOND), "for the moment, as if node1's link to node3 alone had failed");
        node1.heard("node2", Set.of("node1"), 2 * SECOND);
        assertEquals(Set.of(), node1.toKeepOut(2 * SECOND));
        assertEquals(Set.of(), node1.toKeepOut(10 * SECOND), "reports too old say nothing");
    }

    @Test
    void aDecisionIsActedOnOnlyOnceItHeldSteady() {
        Reachability node1 = at("node1", Map.of("node2", Set.of("node1", "node3")), 0);
        for (long t = 0; t < Reachability.STEADY_NANOS; t += SECOND / 2) {
            node1.heard("node2", Set.of("node1", "node3"), t);
            assertEquals(Set.of(), node1.decide(t), "at " + t);
        }
        node1.heard("node2", Set.of("node1", "node3"), Reachability.STEADY_NANOS);
        assertEquals(Set.of("node3"), node1.decide(Reachability.STEADY_NANOS));
        assertEquals(Set.of("node3"), node1.keptOut());

        // The link works again: node1 hears node3, and after as long again nobody is kept out.
        long healed = 4 * SECOND;
        for (long t = healed; t < healed + Reachability.STEADY_NANOS; t += SECOND / 2) {
            node1.heard("node2", Set.of("node1", "node3"), t);
            node1.heard("node3", Set.of("node1", "node2"), t);
            assertEquals(Set.of("node3"), node1.decide(t), "at " + t);
        }
        node1.heard("node2", Set.of("node1", "node3"), healed + Reachability.STEADY_NANOS);
        node1.heard("node3", Set.of("node1", "node2"), healed + Reachability.STEADY_NANOS);
        assertEquals(Set.of(), node1.decide(healed + Reachability.STEADY_NANOS));
    }

    @Test
    void whatANodeHearsIsWhatItsProbesTell() {
        Reachability node1 = at("node1", Map.of("node2", Set.of("node1"), "node3", Set.of("node1")), 0);
        assertEquals(Set.of("node2", "node3"), node1.hearing(SECOND));
        assertEquals(Set.of(), node1.hearing(Reachability.HEARD_NANOS));
    }

    @Test
    void atMostMaxNodesAreTrackedAndANodeHeardAlreadyStillUpdates() {
        Reachability node1 = new Reachability("node1");
        for (int i = 0; i < Reachability.MAX_NODES; i++) {
            node1.heard("n" + i, Set.of("node1"), 0);
        }
        node1.heard("one-too-many", Set.of("node1"), 0);
        assertEquals(Reachability.MAX_NODES, node1.hearing(SECOND).size());
        assertFalse(node1.hearing(SECOND).contains("one-too-many"));
        node1.heard("n0", Set.of("node1"), 2 * SECOND);
        assertEquals(Set.of("n0"), node1.hearing(4 * SECOND), "n0's newer probe was taken; the others' are too old by now");

        long later = 2 * SECOND + Reachability.FORGET_NANOS;
        node1.decide(later);
        node1.heard("one-too-many", Set.of("node1"), later);
        assertEquals(Set.of("one-too-many"), node1.hearing(later), "nodes not heard from for so long were forgotten, and make room");
    }

    @Test
    void aNodeThatOthersHeardAfterThisOneLostItIsBehindAFailingLinkNotGone() {
        // node3's link to node1 is cut at 0; node2 hears both all along.
        Reachability node3 = at("node3", Map.of("node1", Set.of("node2", "node3"), "node2", Set.of("node1", "node3")), 0);
        for (long t = SECOND; t <= 5 * SECOND; t += SECOND) {
            node3.heard("node2", Set.of("node1", "node3"), t);
        }
        assertFalse(node3.heardByOthersSinceLost("node1", 2 * SECOND), "node3 still hears node1: nothing is lost yet");
        assertTrue(node3.heardByOthersSinceLost("node1", 5 * SECOND + SECOND / 2), "when its failure detector suspects node1, 5 s on");
        assertFalse(node3.heardByOthersSinceLost("node2", 5 * SECOND + SECOND / 2), "node3 hears node2");
        assertFalse(node3.heardByOthersSinceLost("node4", 5 * SECOND + SECOND / 2), "a node never heard");
    }

    @Test
    void aNodeThatStoppedIsLostToEveryNodeAlike() {
        // node1 is killed or paused at 0, right after its probes went out; node2's reports name it as heard for three seconds more.
        Reachability node3 = at("node3", Map.of("node1", Set.of("node2", "node3"), "node2", Set.of("node1", "node3")), 0);
        long t = SECOND / 4;
        for (; t < Reachability.HEARD_NANOS; t += SECOND / 4) {
            node3.heard("node2", Set.of("node1", "node3"), t);
            assertFalse(node3.heardByOthersSinceLost("node1", t), "at " + t);
        }
        for (; t <= 8 * SECOND; t += SECOND / 4) {
            node3.heard("node2", Set.of("node3"), t);
            assertFalse(node3.heardByOthersSinceLost("node1", t), "at " + t);
        }
    }
}
