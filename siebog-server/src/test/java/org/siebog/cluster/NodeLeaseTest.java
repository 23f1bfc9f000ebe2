package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

import org.junit.jupiter.api.Test;

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

    /** Answers a round of heartbeats as {@code inView} says, at once. */
    private static BiFunction<String, byte[], CompletableFuture<byte[]>> answers(Map<String, Boolean> inView) {
        return (node, request) -> CompletableFuture.completedFuture(NodeOp.Heartbeat.answer(inView.getOrDefault(node, false)));
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
        assertTrue(lease.mustRejoin());
        assertEquals(epoch + 1, lease.epoch(), "a save asked for before is not stored after");
    }

    @Test
    void theOthersWaitOutADepartedNodesLeaseFromWhenItLeftTheirView() {
        NodeLease lease = inCluster("node1");
        assertTrue(lease.answer("node2"));
        assertFalse(lease.answer("node9"), "not a member");
        now.addAndGet(700 * MS);
        long left = now.get();
        lease.viewChanged("node1#2", List.of("node1", "node3"));
        assertEquals(left + LEASE + MARGIN, lease.surelyExpiredAt("node2"),
                "a member that installs the view later may have answered it until then");
        assertFalse(lease.answer("node2"), "once left out, never renewed from here");
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
}
