package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How much of the save interval agents wait as the node's inbox log fills up (ReplicationLog.saveIntervalShare). */
class SaveIntervalShareTest {

    private static final long MAX = 128L << 20;

    @Test
    void upToAQuarterOfTheBoundAgentsWaitTheWholeInterval() {
        assertEquals(1.0, ReplicationLog.saveIntervalShare(0, MAX));
        assertEquals(1.0, ReplicationLog.saveIntervalShare(29L << 20, MAX), "what full load with small messages holds");
        assertEquals(1.0, ReplicationLog.saveIntervalShare(MAX / 4, MAX));
    }

    @Test
    void beyondItTheWaitShrinksWithTheRoomLeftAndEndsAtTheBound() {
        assertEquals(2.0 / 3, ReplicationLog.saveIntervalShare(MAX / 2, MAX), 1e-9);
        assertEquals(1.0 / 3, ReplicationLog.saveIntervalShare(3 * MAX / 4, MAX), 1e-9);
        assertEquals(0.0, ReplicationLog.saveIntervalShare(MAX, MAX));
        assertEquals(0.0, ReplicationLog.saveIntervalShare(MAX + (1 << 20), MAX), "over the bound (a segment written whole) saves at once");
    }
}
