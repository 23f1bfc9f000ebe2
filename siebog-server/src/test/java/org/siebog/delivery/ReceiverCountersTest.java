package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;
import org.siebog.message.MessageId;

class ReceiverCountersTest {

    @Test
    void eachReceiverIsNumberedOneTwoThree() {
        ReceiverCounters counters = new ReceiverCounters(4);
        assertEquals(1, counters.next("a"));
        assertEquals(1, counters.next("b"));
        assertEquals(2, counters.next("a"));
        assertEquals(0, counters.floor(), "nothing dropped: numbering as it always was");
    }

    @Test
    void theBoundDropsTheReceiverSentToLeastRecently() {
        ReceiverCounters counters = new ReceiverCounters(2);
        counters.next("a");
        counters.next("a");
        counters.next("b");
        counters.next("a"); // b is now the least recent
        counters.next("c");
        assertEquals(2, counters.size());
        assertEquals(List.of("a", "c"), List.copyOf(counters.saved().entries().keySet()));
        assertEquals(1, counters.floor(), "b's last counter");
    }

    @Test
    void aReceiverIsNeverGivenACounterTwiceHoweverOftenItIsDropped() {
        ReceiverCounters counters = new ReceiverCounters(3);
        Map<String, Long> lastSeen = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            String receiver = "r" + (i * 7 % 11); // 11 receivers over 3 places: drops all the time
            long counter = counters.next(receiver);
            Long before = lastSeen.put(receiver, counter);
            assertTrue(before == null || counter > before, receiver + " got " + counter + " after " + before);
            assertTrue(counters.size() <= 3);
        }
    }

    @Test
    void restoredCountersNumberAndDropAsTheSavedOnesWould() {
        ReceiverCounters live = new ReceiverCounters();
        for (int i = 0; i < 3 * ReceiverCounters.MAX_RECEIVERS; i++) {
            live.next("r" + (i % (ReceiverCounters.MAX_RECEIVERS + 5)));
        }
        ReceiverCounters replayed = ReceiverCounters.restored(live.saved());
        List<Long> liveIds = new ArrayList<>();
        List<Long> replayedIds = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) { // the same sends after the save: a handler run again after a failover
            String receiver = "r" + (i * 13 % 2_000);
            liveIds.add(live.next(receiver));
            replayedIds.add(replayed.next(receiver));
        }
        assertEquals(liveIds, replayedIds);
        assertEquals(live.saved(), replayed.saved());
    }

    @Test
    void theNodeNumbersNoReplyInboxAndHoldsABoundedNumberOfReceivers() {
        NodeOrigin origin = new NodeOrigin("node1", 256);
        Map<AID, Long> lastSeen = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            MessageId toInbox = origin.next(new AID("reply-node2-" + java.util.UUID.randomUUID(), "siebog"));
            assertTrue(toInbox.isUnnumbered());
            AID agent = new AID("agent-" + (i * 7 % 1_000), "siebog"); // 1,000 receivers over 256 places
            long counter = origin.next(agent).counter();
            Long before = lastSeen.put(agent, counter);
            assertTrue(before == null || counter > before, agent + " got " + counter + " after " + before);
            assertTrue(origin.receivers() <= 256);
        }
    }
}
