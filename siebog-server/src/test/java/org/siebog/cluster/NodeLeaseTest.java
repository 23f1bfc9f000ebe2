package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

import org.junit.jupiter.api.Test;
import org.siebog.cluster.NodeOp.Heartbeat.Verdict;

/** The lease's rules on a clock the test moves: nothing here waits. */
class NodeLeaseTest {

    private static final List<String> THREE = List.of("node1", "node2", "node3");
    private static final long LEASE = TimeUnit.MILLISECONDS.toNanos(NodeLease.LEASE_MS);
    private static final long MARGIN = TimeUnit.MILLISECONDS.toNanos(NodeLease.MARGIN_MS);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private NodeLease inCluster(String self) {
        NodeLease lease = new NodeLease(self, now::get); // on its own until its first view
        lease.viewChanged("node1#1", THREE);
        return lease;
    }

    /** A lease for each node of {@code view}, all in that view from the start, by node. */
    private Map<String, NodeLease> inCluster(List<String> view) {
        Map<String, NodeLease> leases = new java.util.HashMap<>();
        for (String node : view) {
            NodeLease lease = new NodeLease(node, now::get);
            lease.viewChanged("node1#1", view);
            leases.put(node, lease);
        }
        return leases;
    }

    /** Answers a round of heartbeats as {@code inView} says, at once, each answering node's view being all three. */
    private static BiFunction<String, byte[], CompletableFuture<byte[]>> answers(Map<String, Boolean> inView) {
        return (node, request) -> CompletableFuture.completedFuture(new NodeOp.Heartbeat.Answer(
                inView.getOrDefault(node, false) ? Verdict.IN_VIEW : Verdict.NOT_IN_VIEW, THREE, Map.of()).toBytes());
    }

    /** Heartbeats answered by the other nodes' leases themselves, as ClusterNode answers them. */
    private static BiFunction<String, byte[], CompletableFuture<byte[]>> answeredBy(Map<String, NodeLease> others) {
        return (node, request) -> {
            try {
                NodeOp.Heartbeat heartbeat = (NodeOp.Heartbeat) NodeOp.read(new Wire.Reader(request, 0, request.length));
                NodeLease other = others.get(node);
                return CompletableFuture.completedFuture(new NodeOp.Heartbeat.Answer(other.answer(heartbeat.node(), heartbeat.session()),
                        other.members(), other.lastYesAgo()).toBytes());
            } catch (java.io.IOException e) {
                return CompletableFuture.failedFuture(e);
            }
        };
    }

    @Test
    void aNodeOnItsOwnHoldsWithoutHeartbeats() {
        NodeLease alone = new NodeLease("node1", now::get);
        alone.viewChanged("node1#0", List.of("node1"));
        now.addAndGet(TimeUnit.MINUTES.toNanos(5));
        assertTrue(alone.holds());
    }

    @Test
    void withCompanyItHoldsWhileAQuorumSaysItIsInTheirViewCountedFromWhenItAsked() {
        NodeLease lease = inCluster("node1");
        assertTrue(lease.holds(), "nobody can have taken over from a node that was on its own");
        now.addAndGet(LEASE);
        assertFalse(lease.holds(), "a lease with no answers runs out");
        assertTrue(lease.refusal().getMessage().contains("has not heard from a majority"), lease.refusal().getMessage());

        lease.beat(answers(Map.of("node2", true)), node -> true);
        assertTrue(lease.holds(), "node1 and node2 are two of three");
        now.addAndGet(LEASE - MS);
        assertTrue(lease.holds());
        now.addAndGet(MS);
        assertFalse(lease.holds());
    }

    @Test
    void aNodeKeptOutSaysSoWhenItsLeaseRunsOut() {
        NodeLease lease = inCluster("node3");
        lease.keptOut(true);
        assertTrue(lease.holds(), "kept out, it stops when its lease runs out, as the others stop answering");
        now.addAndGet(LEASE);
        assertTrue(lease.refusal().getMessage().contains("kept out of the cluster"), lease.refusal().getMessage());
        lease.keptOut(false);
        assertTrue(lease.refusal().getMessage().contains("has not heard from a majority"), lease.refusal().getMessage());
    }

    @Test
    void answersThatAreNoOrFromTooFewRenewNothing() {
        NodeLease lease = inCluster("node3");
        now.addAndGet(LEASE);
        lease.beat(answers(Map.of("node1", false, "node2", false)), node -> true);
        assertFalse(lease.holds(), "both said no");
        lease.beat(answers(Map.of("node1", true, "node2", true)), node -> false);
        assertFalse(lease.holds(), "nobody was asked: neither is on the node list");
    }

    @Test
    void aMinorityStopsAtOnceAndRejoinsEmptyWhenMergedBack() {
        NodeLease lease = inCluster("node3");
        lease.viewChanged("node3#2", List.of("node3"));
        assertFalse(lease.quorate());
        assertFalse(lease.holds());
        assertTrue(lease.refusal().getMessage().contains("cut off from the majority"), lease.refusal().getMessage());
        assertFalse(lease.mustRejoin(), "not while it is still cut off");

        lease.viewChanged("node1#3", THREE);
        assertFalse(lease.mustRejoin(), "not before a quorum of the view has answered with it");
        lease.beat(answers(Map.of("node1", false, "node2", false)), node -> true);
        assertTrue(lease.mustRejoin(), "the others took its agents over meanwhile");
        lease.rejoining();
        assertFalse(lease.holds());
        assertFalse(lease.mustRejoin());
        lease.rejoined();
        lease.beat(answers(Map.of("node1", true, "node2", true)), node -> true);
        assertTrue(lease.holds());
    }

    @Test
    void aNodeWhoseLeaseRanOutWhenTheViewChangedForfeitsItsAgentsAndItsPendingSaves() {
        NodeLease lease = inCluster("node2");
        int epoch = lease.epoch();
        now.addAndGet(TimeUnit.SECONDS.toNanos(60)); // paused: the others may have left it out and back in meanwhile
        lease.viewChanged("node1#5", THREE);
        lease.beat(answers(Map.of()), node -> true);
        assertTrue(lease.mustRejoin());
        assertEquals(epoch + 1, lease.epoch(), "a save asked for before is not stored after");
    }

    /** node3 answers a round of heartbeats: yes, its view is {@code view}, and it last said yes to node2 {@code ago} ms ago. */
    private static BiFunction<String, byte[], CompletableFuture<byte[]>> node3Says(List<String> view, long ago) {
        return (node, request) -> CompletableFuture.completedFuture(new NodeOp.Heartbeat.Answer(Verdict.IN_VIEW, view,
                Map.of("node2", ago)).toBytes());
    }

    @Test
    void theOthersWaitOutADepartedNodesLeaseUntilEveryoneItCouldCountOnHasLeftItOut() {
        NodeLease lease = inCluster("node1");
        assertEquals(Verdict.IN_VIEW, lease.answer("node2", 7));
        assertEquals(Verdict.NOT_IN_VIEW, lease.answer("node9", 7), "not a member");
        now.addAndGet(700 * MS);
        lease.viewChanged("node1#2", List.of("node1", "node3"));
        assertEquals(Verdict.NOT_IN_VIEW, lease.answer("node2", 7), "once left out, never renewed from here");
        assertEquals(Long.MAX_VALUE, lease.surelyExpiredAt("node2"),
                "node3 may not have installed the view yet, and its yes alone renews node2's lease");

        now.addAndGet(1500 * MS); // node3 installs it late, and said yes to node2 meanwhile
        lease.beat(node3Says(THREE, 0), node -> true);
        assertEquals(Long.MAX_VALUE, lease.surelyExpiredAt("node2"));
        now.addAndGet(300 * MS);
        lease.beat(node3Says(List.of("node1", "node3"), 200), node -> true);
        assertEquals(now.get() - 200 * MS + LEASE + MARGIN, lease.surelyExpiredAt("node2"), "from node3's last yes, the later of the two");
    }

    @Test
    void aNodeThatFellSilentLongBeforeTheViewLeftItOutIsTakenOverAtOnce() {
        NodeLease lease = inCluster("node1");
        long lastYes = now.get();
        assertEquals(Verdict.IN_VIEW, lease.answer("node2", 7));
        now.addAndGet(TimeUnit.SECONDS.toNanos(7)); // paused: it asked nothing more; the failure detector took 7 s
        lease.viewChanged("node1#2", List.of("node1", "node3"));
        lease.beat(node3Says(List.of("node1", "node3"), 7000), node -> true);
        assertEquals(lastYes + LEASE + MARGIN, lease.surelyExpiredAt("node2"));
        assertTrue(lease.surelyExpiredAt("node2") < now.get(), "its lease ended long ago");
    }

    @Test
    void aNodeLeftOutAndMergedBackWithoutNoticingIsToldToRejoin() {
        Map<String, NodeLease> all = inCluster(THREE);
        NodeLease node1 = all.get("node1");
        NodeLease node2 = all.get("node2");
        NodeLease node3 = all.get("node3");
        AtomicLong forfeits = new AtomicLong();
        node3.onVerdict(forfeits::incrementAndGet);
        node3.beat(answeredBy(all), node -> true);
        assertTrue(node3.holds());

        // node1 and node2 stop hearing node3 (a one-way cut) and leave it out; node3's view never changes.
        node1.viewChanged("node1#2", List.of("node1", "node2"));
        node2.viewChanged("node1#2", List.of("node1", "node2"));
        node1.beat(answeredBy(all), node -> true); // node2 answers with the view without node3: node1 takes over
        node2.beat(answeredBy(all), node -> true);
        assertTrue(node1.settled() && node2.settled());
        node1.viewChanged("node1#3", THREE); // merged back before node3 asked again
        node2.viewChanged("node1#3", THREE);
        node3.beat(answeredBy(all), node -> true);
        assertFalse(node3.holds(), "its agents may have been taken over meanwhile");
        assertTrue(node3.mustRejoin());
        assertEquals(1, forfeits.get(), "told once, so that it rejoins");
        assertTrue(node3.refusal().getMessage().contains("rejoining"), node3.refusal().getMessage());

        node3.rejoining();
        node3.rejoined();
        node3.beat(answeredBy(all), node -> true);
        assertTrue(node3.holds(), "as a new member, it is renewed again");
    }

    /**
     * Two nodes lose each other: node1, the older, goes on and names node2 (in its session) among the
     * nodes it left out. node2 reads that in node1's probe once the link works again, before the views
     * merge: it must drop its copies of the caches first. A probe from a node in its view, one naming an
     * earlier session of node2's, or one from a side that left nobody out, tells it nothing.
     */
    @Test
    void aNodeLeftBehindBySideThatWentOnLearnsItBeforeTheMerge() {
        List<String> two = List.of("node1", "node2");
        Map<String, NodeLease> both = inCluster(two);
        NodeLease node1 = both.get("node1");
        NodeLease node2 = both.get("node2");
        node2.beat(answeredBy(both), node -> true); // node1 learns node2's session
        assertTrue(node2.holds());
        assertFalse(node1.wentOnWithout("node2", node2.leftOut()), "nobody left anybody out yet");

        node1.viewChanged("node1#2", List.of("node1"));
        node2.viewChanged("node2#2", List.of("node2"));
        assertTrue(node1.settled(), "the older of two goes on alone");
        assertEquals(Map.of(), node2.leftOut(), "node2 took nothing over");
        assertFalse(node2.wentOnWithout("node1", Map.of("node2", 42L)), "an earlier session of node2's was left out, not this one");
        assertFalse(node2.holds());

        assertTrue(node2.wentOnWithout("node1", node1.leftOut()), "node1's side went on without node2");
        assertFalse(node2.mustRejoin(), "not before it is back in a view with the quorum");
        node1.viewChanged("node1#3", two);
        node2.viewChanged("node1#3", two);
        node2.beat(answeredBy(both), node -> true);
        assertTrue(node2.mustRejoin());

        assertFalse(node1.wentOnWithout("node2", node2.leftOut()), "node2's side left nobody out");
    }

    /**
     * What node2 sent in the session node1 left it out in may arrive only once the split heals (a
     * request retransmitted): node1 admits none of it. What node2 sends as the member it rejoins as is
     * admitted as ever.
     */
    @Test
    void whatALeftOutNodeSentInThatSessionIsNotAdmittedAfterwards() {
        Map<String, NodeLease> both = inCluster(List.of("node1", "node2"));
        NodeLease node1 = both.get("node1");
        NodeLease node2 = both.get("node2");
        node2.beat(answeredBy(both), node -> true); // node1 learns node2's session
        long before = node2.session();
        assertFalse(node1.leftOutIn("node2", before), "in the view");

        node1.viewChanged("node1#2", List.of("node1"));
        assertTrue(node1.leftOutIn("node2", before), "left out of a settled view in that session");
        assertFalse(node1.leftOutIn("node3", before), "a node it never left out");

        node2.rejoining();
        assertNotEquals(before, node2.session(), "it comes back as a new member");
        assertFalse(node1.leftOutIn("node2", node2.session()));
    }

    @Test
    void aMinorityThatLostSightOfTheOthersNeverTellsThemTheyWereLeftOut() {
        Map<String, NodeLease> all = inCluster(THREE);
        NodeLease node1 = all.get("node1");
        NodeLease node2 = all.get("node2");
        NodeLease node3 = all.get("node3");
        node1.beat(answeredBy(all), node -> true);

        node2.viewChanged("node2#2", List.of("node2")); // node2 is cut off: it left the others out, but took nothing over
        node2.viewChanged("node2#3", THREE);
        node1.beat(answeredBy(all), node -> true);
        assertTrue(node1.holds(), "node1 was never left out by a side that could take its agents over");
        assertFalse(node1.mustRejoin());
    }

    @Test
    void theOlderOfTwoNeedsNoAnswerAndTheYoungerDoes() {
        NodeLease older = new NodeLease("node1", now::get);
        older.viewChanged("node1#1", List.of("node1", "node2"));
        NodeLease younger = new NodeLease("node2", now::get);
        younger.viewChanged("node1#1", List.of("node1", "node2"));
        now.addAndGet(LEASE);
        older.beat(answers(Map.of()), node -> true);
        younger.beat(answers(Map.of()), node -> true);
        assertTrue(older.holds(), "node2 alone could never take node1's agents over");
        assertFalse(younger.holds());
    }

    @Test
    void aNodeThatIsStoppingNoLongerCountsForTheLeaseEither() {
        NodeLease lease = inCluster("node3");
        lease.viewChanged("node2#2", List.of("node2", "node3"));
        lease.left("node2"); // node2 took itself off the node list; its channel is still open
        now.addAndGet(LEASE);
        lease.beat(answers(Map.of("node2", false)), node -> !node.equals("node2"));
        assertTrue(lease.holds());
    }

    @Test
    void nodesThatLeaveOneAfterTheOtherGracefullyLeaveTheLastGoingOn() {
        NodeLease lease = inCluster("node3");
        lease.left("node1");
        lease.viewChanged("node2#2", List.of("node2", "node3"));
        lease.left("node2");
        lease.viewChanged("node3#3", List.of("node3"));
        assertTrue(lease.quorate());
        assertTrue(lease.holds());

        NodeLease crashed = inCluster("node3");
        crashed.viewChanged("node2#2", List.of("node2", "node3"));
        crashed.viewChanged("node3#3", List.of("node3"));
        assertFalse(crashed.quorate(), "the younger of two that lost the other cannot tell a crash from a cut");
    }

    @Test
    void aNodeWithoutTheQuorumTakesNobodyOffItsReference() {
        NodeLease lease = new NodeLease("node5", now::get);
        lease.viewChanged("node1#1", List.of("node1", "node2", "node3", "node4", "node5"));
        lease.viewChanged("node4#2", List.of("node4", "node5")); // cut off with node4
        lease.left("node2"); // node4 (in the same minority) removed them from the node list
        lease.left("node3");
        lease.viewChanged("node4#3", List.of("node4", "node5"));
        assertFalse(lease.quorate(), "two of five are not a quorum, whatever a node of the two removed");
    }

    @Test
    void aNodeThatRejoinedCountsTowardsTheQuorumAgain() {
        NodeLease lease = new NodeLease("node4", now::get);
        lease.viewChanged("node1#1", List.of("node1", "node2", "node3", "node4", "node5"));
        lease.left("node5"); // node5 rejoins empty: off the node list, still in the view
        lease.rejoined("node5"); // and back on it, with no view change
        lease.viewChanged("node4#2", List.of("node4", "node5", "node2")); // node1 and node3 killed at once
        assertTrue(lease.quorate(), "three of the five are the quorum");
    }

    @Test
    void aViewIsSettledOnlyOnceAQuorumOfItHasAnsweredWithIt() {
        Map<String, NodeLease> all = inCluster(THREE);
        NodeLease node1 = all.get("node1");
        NodeLease node2 = all.get("node2");
        NodeLease node3 = all.get("node3");
        node1.viewChanged("node1#2", List.of("node1", "node2")); // node3 killed
        assertTrue(node1.quorate(), "two of three admit at once");
        assertFalse(node1.settled(), "but act for the cluster only once node2 shows the same view");
        node1.beat(answeredBy(all), node -> true);
        assertFalse(node1.settled(), "node2 has not installed it yet");
        node2.viewChanged("node1#2", List.of("node1", "node2"));
        node1.beat(answeredBy(all), node -> true);
        assertTrue(node1.settled());
    }

    @Test
    void aSideThatCountsANodeItCannotReachNeverSettlesNorTellsTheMajorityItWasLeftOut() {
        List<String> five = List.of("node1", "node2", "node3", "node4", "node5");
        Map<String, NodeLease> all = inCluster(five);
        five.forEach(node -> all.get(node).beat(answeredBy(all), n -> true));
        // node3 and node5 are cut off; past the lease, the failure detector gives node3 a view that still
        // counts node4, which the majority's view holds too.
        List<String> near = List.of("node1", "node2", "node4");
        now.addAndGet(LEASE);
        near.forEach(node -> all.get(node).beat(answeredBy(all), near::contains));
        List<String> far = List.of("node3", "node4", "node5");
        all.get("node3").viewChanged("node3#2", far);
        all.get("node5").viewChanged("node3#2", far);
        near.forEach(node -> all.get(node).viewChanged("node1#2", near));
        java.util.function.Predicate<String> reachableFromFar = node -> node.equals("node3") || node.equals("node5");
        all.get("node3").beat(answeredBy(all), reachableFromFar);
        all.get("node5").beat(answeredBy(all), reachableFromFar);
        assertTrue(all.get("node3").quorate(), "three of five, as far as its view goes");
        assertFalse(all.get("node3").settled(), "node4 never answered with that view");
        assertFalse(all.get("node5").settled());
        near.forEach(node -> all.get(node).beat(answeredBy(all), near::contains));
        assertTrue(all.get("node1").settled(), "the majority settles its view");

        // healed: one view of all five again
        five.forEach(node -> all.get(node).viewChanged("node1#3", five));
        five.forEach(node -> all.get(node).beat(answeredBy(all), n -> true));
        assertFalse(all.get("node1").mustRejoin(), "node3's side never took anything over from node1");
        assertTrue(all.get("node3").mustRejoin(), "the majority took node3's agents over");
        assertTrue(all.get("node5").mustRejoin());
    }
}
