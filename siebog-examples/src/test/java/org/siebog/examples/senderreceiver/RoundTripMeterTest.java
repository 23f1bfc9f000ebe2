package org.siebog.examples.senderreceiver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.siebog.examples.senderreceiver.RoundTripMeter.Milestone;

class RoundTripMeterTest {

    @Test
    void warmUpRoundTripsAreNotMeasured() {
        RoundTripMeter meter = new RoundTripMeter(2, 3);
        long t = 0;
        meter.sent(t);
        assertEquals(Milestone.NONE, meter.replied(t += 1000));
        meter.sent(t);
        assertEquals(Milestone.WARMED_UP, meter.replied(t += 1000));
        // Still unmeasured until the coordinator says "measure".
        meter.sent(t);
        assertEquals(Milestone.NONE, meter.replied(t += 1000));
        assertEquals(0, meter.measuredCount());
    }

    @Test
    void measuresExactlyTheNextRoundTripsAfterMeasure() {
        RoundTripMeter meter = new RoundTripMeter(1, 3);
        meter.sent(0);
        assertEquals(Milestone.WARMED_UP, meter.replied(10));
        meter.sent(10);
        meter.measure(); // arrives while a request is in flight: that one is not measured
        assertEquals(Milestone.NONE, meter.replied(20));
        meter.sent(100);
        assertEquals(Milestone.NONE, meter.replied(105));
        meter.sent(105);
        assertEquals(Milestone.NONE, meter.replied(115));
        meter.sent(115);
        assertEquals(Milestone.MEASURED, meter.replied(130));
        assertEquals(3, meter.measuredCount());
        assertEquals(5 + 10 + 15, meter.measuredRttNanos());
        assertEquals(30, meter.windowNanos());
        // Cool-down: keeps going, counts nothing more.
        meter.sent(130);
        assertEquals(Milestone.NONE, meter.replied(200));
        assertEquals(3, meter.measuredCount());
    }

    @Test
    void stopIsRemembered() {
        RoundTripMeter meter = new RoundTripMeter(1, 1);
        meter.stop();
        assertTrue(meter.stopped());
    }

    @Test
    void roundTripCountsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new RoundTripMeter(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new RoundTripMeter(1, 0));
    }
}
