package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.siebog.device.FrameRateLimiter.Verdict.ADMIT;
import static org.siebog.device.FrameRateLimiter.Verdict.CLOSE;
import static org.siebog.device.FrameRateLimiter.Verdict.REFUSE;

import org.junit.jupiter.api.Test;

class FrameRateLimiterTest {

    private static final long MS = 1_000_000L;

    @Test
    void aBurstIsAdmittedThenFramesAtTheRate() {
        FrameRateLimiter limiter = new FrameRateLimiter(100, 5, 1_000, 0);
        for (int i = 0; i < 5; i++) {
            assertEquals(ADMIT, limiter.take(0), "frame " + i + " of the burst");
        }
        assertEquals(REFUSE, limiter.take(0));
        assertEquals(REFUSE, limiter.take(9 * MS), "0.9 of a frame refilled");
        assertEquals(ADMIT, limiter.take(10 * MS), "one frame per 10 ms at 100 a second");
        assertEquals(REFUSE, limiter.take(11 * MS));
        for (int i = 0; i < 5; i++) {
            assertEquals(ADMIT, limiter.take(10_000 * MS), "refilled to the burst, no more");
        }
        assertEquals(REFUSE, limiter.take(10_000 * MS));
    }

    @Test
    void aDeviceThatKeepsSendingWhileRefusedIsClosed() {
        FrameRateLimiter limiter = new FrameRateLimiter(1, 1, 3, 0);
        assertEquals(ADMIT, limiter.take(0));
        assertEquals(REFUSE, limiter.take(1 * MS));
        assertEquals(REFUSE, limiter.take(2 * MS));
        assertEquals(REFUSE, limiter.take(3 * MS));
        assertEquals(CLOSE, limiter.take(4 * MS), "a fourth refusal without a second's pause");
    }

    @Test
    void aDeviceThatBacksOffForASecondIsForgivenItsRefusals() {
        FrameRateLimiter limiter = new FrameRateLimiter(1, 1, 3, 0);
        assertEquals(ADMIT, limiter.take(0));
        assertEquals(REFUSE, limiter.take(100 * MS));
        assertEquals(REFUSE, limiter.take(200 * MS));
        assertEquals(REFUSE, limiter.take(300 * MS));
        assertEquals(ADMIT, limiter.take(1_300 * MS), "a second later a frame has refilled");
        assertEquals(REFUSE, limiter.take(1_400 * MS), "counted afresh: over a second since the last refusal");
        assertEquals(REFUSE, limiter.take(1_500 * MS));
        assertEquals(REFUSE, limiter.take(1_600 * MS));
        assertEquals(CLOSE, limiter.take(1_700 * MS));
    }
}
