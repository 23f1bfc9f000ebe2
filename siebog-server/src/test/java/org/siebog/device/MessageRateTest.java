package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A device's message rate: the last whole window's count per second; an idle device falls to 0. */
class MessageRateTest {

    private static final long W = MessageRate.WINDOW_MS;

    @Test
    void theRateIsTheLastWholeWindowsCountPerSecond() {
        MessageRate rate = new MessageRate();
        long start = 1_000 * W;
        assertEquals(0.0, rate.perSecond(start), "nothing counted yet");
        for (int i = 0; i < 50; i++) {
            rate.count(start + i);
        }
        assertEquals(0.0, rate.perSecond(start + W - 1), "the window is not over");
        assertEquals(50 * 1_000.0 / W, rate.perSecond(start + W), "the window just over: its count per second");
        rate.count(start + W + 1);
        assertEquals(50 * 1_000.0 / W, rate.perSecond(start + 2 * W - 1), "still, until the next window ends");
        assertEquals(1 * 1_000.0 / W, rate.perSecond(start + 2 * W));
    }

    @Test
    void anIdleDeviceFallsToZero() {
        MessageRate rate = new MessageRate();
        long start = 2_000 * W;
        for (int i = 0; i < 10; i++) {
            rate.count(start);
        }
        assertEquals(0.0, rate.perSecond(start + 2 * W), "a window with nothing in it came between");
        assertEquals(0.0, rate.perSecond(start + 10 * W));
    }
}
