package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class DedupWindowTest {

    @Test
    void eachCounterIsNewOnce() {
        DedupWindow window = new DedupWindow();
        assertTrue(window.add(1));
        assertTrue(window.add(2));
        assertFalse(window.add(1));
        assertFalse(window.add(2));
        assertEquals(2, window.low());
        assertTrue(window.above().isEmpty());
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
        assertTrue(window.above().isEmpty());
    }

    @Test
    void aGapThatNeverClosesIsGivenUpOnSoTheWindowStaysSmall() {
        DedupWindow window = new DedupWindow();
        for (long c = 2; c <= DedupWindow.MAX_ABOVE + 2; c++) {
            assertTrue(window.add(c));
        }
        assertTrue(window.above().size() <= DedupWindow.MAX_ABOVE);
        assertTrue(window.low() > 1);
    }

    @Test
    void aRecordSurvivesItsEncoding() {
        DedupWindow window = new DedupWindow(7, List.of(9L, 12L));
        List<LogRange> ranges = List.of(new LogRange("node1/b1", 12, 50), LogRange.open("node2/b2", 3));
        AgentRecord record = new AgentRecord(new byte[] {1, 2, 3}, 41, Map.of("a@siebog", window), Map.of("b@siebog", 5L), -3L, ranges);
        AgentRecord back = AgentRecord.decode(record.encode());
        assertEquals(41, back.handledSeq());
        assertEquals(ranges, back.ranges());
        assertEquals(List.of((byte) 1, (byte) 2, (byte) 3), List.of(back.state()[0], back.state()[1], back.state()[2]));
        assertEquals(7, back.admitted().get("a@siebog").low());
        assertEquals(List.of(9L, 12L), List.copyOf(back.admitted().get("a@siebog").above()));
        assertEquals(Map.of("b@siebog", 5L), back.sent());
        assertEquals(-3L, back.incarnation());
        assertFalse(back.admitted().get("a@siebog").add(9));
        assertTrue(back.admitted().get("a@siebog").add(8));
    }
}
