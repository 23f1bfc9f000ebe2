package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;
import org.siebog.message.MessageId;

class ReceiverCountersTest {

    private static AID aid(String name) {
        return new AID(name, "siebog");
    }

    @Test
    void eachReceiverIsNumberedOneTwoThree() {
        ReceiverCounters counters = new ReceiverCounters(4);
        assertEquals(1, counters.next(aid("a")));
        assertEquals(1, counters.next(aid("b")));
        assertEquals(2, counters.next(aid("a")));
        assertEquals(0, counters.floor(), "nothing dropped: numbering as it always was");
    }

    @Test
    void theBoundDropsTheReceiverSentToLeastRecently() {
        ReceiverCounters counters = new ReceiverCounters(2);
        counters.next(aid("a"));
        counters.next(aid("a"));
        counters.next(aid("b"));
        counters.next(aid("a")); // b is now the least recent
        counters.next(aid("c"));
        assertEquals(2, counters.size());
        assertEquals(List.of("a@siebog", "c@siebog"), List.copyOf(counters.saved().entries().keySet()));
        assertEquals(1, counters.floor(), "b's last counter");
    }

    @Test
    void beyondTheBoundAnEighthOfTheReceiversIsDroppedAtOnceLeastRecentFirst() {
        ReceiverCounters counters = new ReceiverCounters(16);
        for (int i = 0; i < 16; i++) {
            counters.next(aid("r" + i));
        }
        counters.next(aid("r0")); // r1, r2, r3 are now the least recent
        counters.next(aid("new")); // 17 held: down to 14
        assertEquals(14, counters.size());
        for (String dropped : List.of("r1@siebog", "r2@siebog", "r3@siebog")) {
            assertFalse(counters.saved().entries().containsKey(dropped), dropped);
        }
        assertEquals(List.of("r4@siebog", "new@siebog"), List.of(first(counters), last(counters)));
        assertEquals(1, counters.floor());
    }

    private static String first(ReceiverCounters counters) {
        return counters.saved().entries().keySet().iterator().next();
    }

    private static String last(ReceiverCounters counters) {
        return List.copyOf(counters.saved().entries().keySet()).get(counters.size() - 1);
    }

    @Test
    void aReceiverIsNeverGivenACounterTwiceHoweverOftenItIsDropped() {
        ReceiverCounters counters = new ReceiverCounters(3);
        Map<String, Long> lastSeen = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            String receiver = "r" + (i * 7 % 11); // 11 receivers over 3 places: drops all the time
            long counter = counters.next(aid(receiver));
            Long before = lastSeen.put(receiver, counter);
            assertTrue(before == null || counter > before, receiver + " got " + counter + " after " + before);
            assertTrue(counters.size() <= 3);
        }
    }

    @Test
    void restoredCountersNumberAndDropAsTheSavedOnesWould() {
        ReceiverCounters live = new ReceiverCounters();
        for (int i = 0; i < 3 * ReceiverCounters.MAX_RECEIVERS; i++) {
            live.next(aid("r" + (i % (ReceiverCounters.MAX_RECEIVERS + 5))));
        }
        ReceiverCounters replayed = ReceiverCounters.restored(live.saved());
        List<Long> liveIds = new ArrayList<>();
        List<Long> replayedIds = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) { // the same sends after the save: a handler run again after a failover
            String receiver = "r" + (i * 13 % 2_000);
            liveIds.add(live.next(aid(receiver)));
            replayedIds.add(replayed.next(aid(receiver)));
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
