package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Performative;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.NodeOp;
import org.siebog.cluster.RemoteNodes;
import org.siebog.message.SniffFilter;
import org.siebog.message.SniffedMessage;

/**
 * The sniffer's taps (pure logic: the cluster, the other nodes and the timer are stand-ins): what a watch
 * gets and in which order, what it tells the other nodes, and its bounds.
 */
class SnifferTest {

    private static final AID PING = AID.parse("ping@siebog");
    private static final AID PONG = AID.parse("pong@siebog");
    private static final AID OTHER = AID.parse("other@siebog");

    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    /** What this node told others: (node or "*", the operation). */
    private final List<Object[]> told = new ArrayList<>();
    private final List<SniffedMessage> got = new ArrayList<>();

    private Sniffer sniffer() {
        Sniffer sniffer = new Sniffer();
        sniffer.cluster = new ClusterNode() {
            @Override
            public String name() {
                return "node1";
            }
        };
        sniffer.remote = new RemoteNodes() {
            @Override
            public void tell(String node, NodeOp op) {
                told.add(new Object[] {node, op});
            }

            @Override
            public void tellOthers(NodeOp op) {
                told.add(new Object[] {"*", op});
            }
        };
        sniffer.executor = new AgentExecutor() {
            @Override
            public ScheduledExecutorService timer() {
                return timer;
            }
        };
        return sniffer;
    }

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    private static ACLMessage message(AID from, AID to, String content) {
        return ACLMessage.builder(Performative.INFORM).sender(from).receiver(to).content(content).build();
    }

    @Test
    void aWatchStartsWithTheRecentMatchesOldestFirstThenGetsEachNewOne() {
        Sniffer sniffer = sniffer();
        sniffer.admitted(PONG, message(PING, PONG, "1"));
        sniffer.admitted(OTHER, message(OTHER, OTHER, "not watched"));
        sniffer.admitted(PING, message(PONG, PING, "2"));

        try (Sniffer.Watch watch = sniffer.watch(new SniffFilter(Set.of(PING), Set.of()), got::add)) {
            assertEquals(List.of("1", "2"), got.stream().map(c -> c.message().content()).toList());
            assertTrue(got.stream().allMatch(SniffedMessage::recent));
            sniffer.admitted(PONG, message(PING, PONG, "3"));
            sniffer.admitted(OTHER, message(OTHER, OTHER, "still not"));
            assertEquals(3, got.size());
            SniffedMessage live = got.get(2);
            assertEquals("3", live.message().content());
            assertFalse(live.recent());
            assertEquals("node1", live.node());
            assertEquals(PONG, live.receiver());

            NodeOp.Watch opened = (NodeOp.Watch) told.get(0)[1];
            assertEquals("*", told.get(0)[0], "every other node is told of the watch");
            assertEquals("node1", opened.watcher());
            assertEquals(Sniffer.LEASE_MS, opened.leaseMillis());
        }
        assertEquals(0L, ((NodeOp.Watch) told.get(told.size() - 1)[1]).leaseMillis(), "and told again, with no lease, when it closes");
        assertEquals(0, sniffer.taps());
        sniffer.admitted(PONG, message(PING, PONG, "after"));
        assertEquals(3, got.size(), "a closed watch gets nothing");
    }

    @Test
    void theRecentRingKeepsTheLastAdmissionsOnly() {
        Sniffer sniffer = sniffer();
        for (int i = 0; i < Sniffer.RECENT + 10; i++) {
            sniffer.admitted(PONG, message(PING, PONG, Integer.toString(i)));
        }
        sniffer.watch(new SniffFilter(Set.of(PONG), Set.of()), got::add).close();
        assertEquals(Sniffer.RECENT, got.size());
        assertEquals("10", got.get(0).message().content());
        assertEquals(Integer.toString(Sniffer.RECENT + 9), got.get(got.size() - 1).message().content());
    }

    @Test
    void theRingKeepsItsOrderWhenTheCountWraps() {
        Sniffer sniffer = sniffer();
        sniffer.next = Integer.MAX_VALUE - 4;
        for (int i = 0; i < 10; i++) {
            sniffer.admitted(PONG, message(PING, PONG, Integer.toString(i)));
        }
        sniffer.watch(new SniffFilter(Set.of(PONG), Set.of()), got::add).close();
        assertEquals(List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), got.stream().map(c -> c.message().content()).toList());
    }

    @Test
    void anotherNodesWatchSendsItsCopiesBackUntilItsLeaseEnds() {
        Sniffer sniffer = sniffer();
        sniffer.admitted(PONG, message(PING, PONG, "before"));
        SniffFilter filter = new SniffFilter(Set.of(), Set.of("c-1"));
        ACLMessage inConversation = ACLMessage.builder(Performative.CALL_FOR_PROPOSAL).sender(PING).receiver(PONG).conversationId("c-1").build();
        sniffer.admitted(PONG, inConversation);

        sniffer.watchedFrom("node2", "node2/w", filter, 30_000);
        sniffer.watchedFrom("node2", "node2/w", filter, 30_000); // a renewal: no second tap, no second round of recent copies
        assertEquals(1, sniffer.taps());
        sniffer.admitted(PONG, inConversation);
        assertEquals(2, told.size(), "the recent match and the new one, each back to the watcher");
        for (Object[] t : told) {
            assertEquals("node2", t[0]);
            assertEquals("node2/w", ((NodeOp.Sniffed) t[1]).watchId());
        }
        assertTrue(((NodeOp.Sniffed) told.get(0)[1]).copy().recent());
        assertFalse(((NodeOp.Sniffed) told.get(1)[1]).copy().recent());

        sniffer.watchedFrom("node2", "node2/w", filter, 0);
        assertEquals(0, sniffer.taps());
    }

    @Test
    void aCopyFromAnotherNodeGoesToItsWatchOnly() {
        Sniffer sniffer = sniffer();
        try (Sniffer.Watch watch = sniffer.watch(new SniffFilter(Set.of(PING), Set.of()), got::add)) {
            String id = ((NodeOp.Watch) told.get(0)[1]).id();
            SniffedMessage copy = new SniffedMessage("node2", 1, PING, message(PONG, PING, "from node2"), false, 0);
            sniffer.copyArrived(id, copy);
            sniffer.copyArrived("node1/another", copy);
            assertEquals(List.of(copy), got);
        }
    }

    @Test
    void aTapSendsAtMostItsRatePerSecondAndTheNextCopySaysHowManyItMissed() {
        Sniffer sniffer = sniffer();
        long[] second = {1_000};
        sniffer.clockSeconds = () -> second[0];
        try (Sniffer.Watch watch = sniffer.watch(new SniffFilter(Set.of(PONG), Set.of()), got::add)) {
            for (int i = 0; i < Sniffer.MAX_COPIES_PER_SECOND + 50; i++) {
                sniffer.admitted(PONG, message(PING, PONG, "m"));
            }
            assertEquals(Sniffer.MAX_COPIES_PER_SECOND, got.size());
            assertTrue(got.stream().allMatch(c -> c.missed() == 0));
            second[0]++;
            sniffer.admitted(PONG, message(PING, PONG, "next second"));
            sniffer.admitted(PONG, message(PING, PONG, "and another"));
            assertEquals(Sniffer.MAX_COPIES_PER_SECOND + 2, got.size());
            assertEquals(50, got.get(Sniffer.MAX_COPIES_PER_SECOND).missed(), "the first copy of the next second says what was missed");
            assertEquals(0, got.get(Sniffer.MAX_COPIES_PER_SECOND + 1).missed(), "once");
        }
    }

    @Test
    void aNodeHoldsABoundedNumberOfTaps() {
        Sniffer sniffer = sniffer();
        SniffFilter filter = new SniffFilter(Set.of(PING), Set.of());
        for (int i = 0; i < Sniffer.MAX_TAPS; i++) {
            sniffer.watchedFrom("node2", "node2/w" + i, filter, 30_000);
        }
        Sniffer.SniffersFullException full = assertThrows(Sniffer.SniffersFullException.class, () -> sniffer.watch(filter, got::add));
        assertEquals(503, full.status());
        assertEquals(Sniffer.MAX_TAPS, sniffer.taps());
    }
}
