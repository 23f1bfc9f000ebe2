package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.siebog.message.MessageId;

/** The windows by origin, on a clock the test sets: given up after the horizon or beyond the bound, kept otherwise. */
class OriginWindowsTest {

    private static final long HORIZON = 600_000;
    private final AtomicLong now = new AtomicLong(1_000_000);

    private OriginWindows windows(int max) {
        return new OriginWindows(now::get, HORIZON, max);
    }

    @Test
    void aRepeatWithinTheHorizonIsRecognised() {
        OriginWindows windows = windows(10);
        assertTrue(windows.add(new MessageId("a@siebog", 1)));
        now.addAndGet(HORIZON); // exactly the horizon later: still kept
        assertTrue(windows.add(new MessageId("b@siebog", 1)));
        assertTrue(windows.contains(new MessageId("a@siebog", 1)));
        assertFalse(windows.add(new MessageId("a@siebog", 1)));
    }

    @Test
    void anOriginSilentForLongerThanTheHorizonIsGivenUpAtTheNextAdmission() {
        OriginWindows windows = windows(10);
        windows.add(new MessageId("gone@siebog", 1));
        windows.add(new MessageId("node1/boot1", 1));
        now.addAndGet(HORIZON / 2);
        windows.add(new MessageId("node1/boot1", 2)); // heard again: its window moves to the end
        now.addAndGet(HORIZON / 2 + 1);
        windows.add(new MessageId("new@siebog", 1));
        assertEquals(2, windows.size());
        assertFalse(windows.contains(new MessageId("gone@siebog", 1)));
        assertTrue(windows.contains(new MessageId("node1/boot1", 2)));
    }

    @Test
    void agentsComingAndGoingForeverLeaveAtMostTheBound() {
        OriginWindows windows = windows(100);
        for (int i = 0; i < 100_000; i++) {
            windows.add(new MessageId("agent-" + i + "@siebog", 1));
            now.addAndGet(1); // 100,000 origins well within one horizon: the bound gives up the least recent
            assertTrue(windows.size() <= 100);
        }
        assertTrue(windows.contains(new MessageId("agent-99999@siebog", 1)));
        assertFalse(windows.contains(new MessageId("agent-0@siebog", 1)));
    }

    @Test
    void restoredWindowsKeepWhenTheyWereHeardFrom() {
        OriginWindows live = windows(10);
        live.add(new MessageId("old@siebog", 3));
        now.addAndGet(HORIZON / 2);
        live.add(new MessageId("recent@siebog", 7));
        Map<String, DedupWindow> saved = live.copy();
        AgentRecord record = AgentRecord.decode(new AgentRecord(new byte[0], 1, saved,
                org.siebog.delivery.ReceiverCounters.Saved.NONE, 1, java.util.List.of()).encode());

        now.addAndGet(HORIZON / 2 + 1); // taken over later: "old" is past its horizon, "recent" is not
        OriginWindows resumed = windows(10).restore(record.handled());
        assertEquals(1, resumed.size());
        assertTrue(resumed.contains(new MessageId("recent@siebog", 7)));
    }
}
