package org.siebog.examples.senderreceiver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RunTallyTest {

    @Test
    void measureOnlyWhenEveryPairHasWarmedUpAndStopOnlyWhenEveryPairHasMeasured() {
        RunTally tally = new RunTally(3);
        assertFalse(tally.warmedUp());
        assertFalse(tally.warmedUp());
        assertTrue(tally.warmedUp());
        // Three pairs that start together: at 1, 2 and 3 ms a round trip, the slowest takes 300 ms.
        assertFalse(tally.measured(100, 100 * 1_000_000L, 0, 100 * 1_000_000L));
        assertThrows(IllegalStateException.class, tally::result);
        assertFalse(tally.measured(100, 100 * 2_000_000L, 0, 100 * 2_000_000L));
        assertTrue(tally.measured(100, 100 * 3_000_000L, 0, 100 * 3_000_000L));

        RunResult result = tally.result();
        assertEquals(3, result.pairs());
        assertEquals(300, result.measuredRoundTrips());
        assertEquals(2.0, result.avgRttMs(), 1e-9);   // mean of 1, 2 and 3 ms
        assertEquals(1.0, result.minPairRttMs(), 1e-9);
        assertEquals(3.0, result.maxPairRttMs(), 1e-9);
        assertEquals(300 / 0.3, result.roundTripsPerSec(), 1e-6, "300 round trips within 300 ms");
    }

    @Test
    void pairsThatRanOneAfterTheOtherCountAsOne() {
        RunTally tally = new RunTally(2);
        tally.measured(100, 100 * 1_000_000L, 0, 100 * 1_000_000L);
        tally.measured(100, 100 * 1_000_000L, 100 * 1_000_000L, 100 * 1_000_000L);
        assertEquals(1000, tally.result().roundTripsPerSec(), 1e-6, "each did 1,000 a second, but not at once");
    }
}
