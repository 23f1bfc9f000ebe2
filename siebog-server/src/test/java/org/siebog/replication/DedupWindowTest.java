package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.delivery.ReceiverCounters;

class DedupWindowTest {

    @Test
    void eachCounterIsNewOnce() {
        DedupWindow window = new DedupWindow();
        assertTrue(window.add(1));
        assertTrue(window.add(2));
        assertFalse(window.add(1));
        assertFalse(window.add(2));
        assertEquals(2, window.low());
        assertTrue(window.runs().isEmpty());
    }

    @Test
    void outOfOrderArrivalsCloseTheGap() {
        DedupWindow window = new DedupWindow();
        assertTrue(window.add(3));
        assertTrue(window.add(5));
        assertFalse(window.add(3));
        assertEquals(0, window.low());
        assertTrue(window.add(1));
        assertTrue(window.add(2));
        assertEquals(3, window.low());
        assertTrue(window.add(4));
        assertEquals(5, window.low());
        assertTrue(window.runs().isEmpty());
    }

    @Test
    void countersAboveAHoleAreHeldAsOneRun() {
        DedupWindow window = new DedupWindow();
        window.add(1);
        for (long c = 3; c <= 50_000; c++) { // 2 was refused and never came again
            assertTrue(window.add(c));
        }
        assertEquals(1, window.low());
        assertEquals(List.of(new DedupWindow.Run(3, 50_000)), window.runs());
        assertTrue(window.contains(40_000));
        assertFalse(window.contains(2));
        assertFalse(window.contains(50_001));
        assertTrue(window.add(2)); // it came after all: the hole closes
        assertEquals(50_000, window.low());
        assertTrue(window.runs().isEmpty());
    }

    @Test
    void aCounterBetweenTwoRunsJoinsThem() {
        DedupWindow window = new DedupWindow();
        window.add(3);
        window.add(5);
        assertEquals(List.of(new DedupWindow.Run(3, 3), new DedupWindow.Run(5, 5)), window.runs());
        window.add(4);
        assertEquals(List.of(new DedupWindow.Run(3, 5)), window.runs());
        assertEquals(0, window.low());
    }

    @Test
    void theOldestHoleIsGivenUpOnSoTheWindowStaysSmall() {
        DedupWindow window = new DedupWindow();
        for (long c = 2; c <= 2 * (DedupWindow.MAX_RUNS + 1); c += 2) { // every odd counter is a hole
            assertTrue(window.add(c));
        }
        assertEquals(DedupWindow.MAX_RUNS, window.runs().size());
        assertEquals(2, window.low()); // hole 1 given up on: its counter now counts as seen
        assertFalse(window.add(1));
        assertTrue(window.add(3));
    }

    @Test
    void aRecordSurvivesItsEncoding() {
        DedupWindow window = new DedupWindow(7, List.of(new DedupWindow.Run(9, 10), new DedupWindow.Run(12, 12)), 1_700_000_000_000L);
        List<LogRange> ranges = List.of(new LogRange("node1/b1", 12, 50), LogRange.open("node2/b2", 3));
        AgentRecord record = new AgentRecord(new byte[] {1, 2, 3}, 41, Map.of("a@siebog", window),
                new ReceiverCounters.Saved(Map.of("b@siebog", 5L), 4), -3L, ranges, List.of("ask-q1", "ask-q2"));
        AgentRecord back = AgentRecord.decode(record.encode());
        assertEquals(41, back.handledSeq());
        assertEquals(List.of("ask-q1", "ask-q2"), back.openQuestions());
        assertEquals(ranges, back.ranges());
        assertEquals(List.of((byte) 1, (byte) 2, (byte) 3), List.of(back.state()[0], back.state()[1], back.state()[2]));
        assertEquals(7, back.handled().get("a@siebog").low());
        assertEquals(1_700_000_000_000L, back.handled().get("a@siebog").heardAt());
        assertEquals(window.runs(), back.handled().get("a@siebog").runs());
        assertEquals(new ReceiverCounters.Saved(Map.of("b@siebog", 5L), 4), back.sent());
        assertEquals(-3L, back.incarnation());
        assertFalse(back.handled().get("a@siebog").add(10));
        assertTrue(back.handled().get("a@siebog").add(8));
    }
}
