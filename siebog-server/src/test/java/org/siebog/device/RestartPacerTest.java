package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RestartPacerTest {

    private static final long WINDOW = 10_000;

    /** A pacer that has seen {@code units} joined for a while. */
    private static RestartPacer steadyAt(double units) {
        RestartPacer pacer = new RestartPacer(WINDOW);
        assertEquals(0, pacer.allowance(0, units, 0));
        assertEquals(0, pacer.allowance(1_000, units, 0));
        return pacer;
    }

    @Test
    void theUnitsAreReadEverySecondOrWheneverAgentsWait() {
        RestartPacer pacer = steadyAt(100);
        assertFalse(pacer.wantsUnits(1_999, 0));
        assertTrue(pacer.wantsUnits(1_999, 3));
        assertTrue(pacer.wantsUnits(2_000, 0));
    }

    @Test
    void whileHalfOfTheUnitsOrMoreAreJoinedEveryWaitingAgentStarts() {
        RestartPacer pacer = steadyAt(100);
        assertEquals(7, pacer.allowance(2_000, 90, 7), "one device of many left");
        assertEquals(40, pacer.allowance(3_000, 50, 40), "half of the units left");
    }

    @Test
    void afterAMassDepartureAgentsRestartInProportionToTheUnitsBack() {
        RestartPacer pacer = steadyAt(100);
        assertEquals(0, pacer.allowance(2_000, 0, 1_000), "no device back, nothing to start on");
        assertEquals(100, pacer.allowance(2_100, 10, 1_000), "a tenth of the units back: a tenth of the agents");
        assertEquals(0, pacer.allowance(2_200, 10, 900), "the same units again: nothing more, however often it sweeps");
        assertEquals(200, pacer.allowance(2_300, 30, 900), "three tenths back: three tenths in all");
        assertEquals(700, pacer.allowance(2_400, 50, 700), "half back: the rest");
    }

    @Test
    void aPartOfAnAgentRoundsUpSoTheFirstDeviceBackGetsAtLeastOne() {
        RestartPacer pacer = steadyAt(16_000);
        assertEquals(1, pacer.allowance(2_000, 10, 20));
    }

    @Test
    void devicesThatDoNotComeBackWithinTheWindowNoLongerHoldAgentsBack() {
        RestartPacer pacer = steadyAt(100);
        assertEquals(5, pacer.allowance(2_000, 10, 50));
        assertEquals(0, pacer.allowance(1_000 + WINDOW, 10, 45));
        assertEquals(45, pacer.allowance(1_001 + WINDOW, 10, 45), "the peak is older than the window");
    }

    @Test
    void devicesLeavingWhileAgentsRestartCountTheirAgentsAsWaitingAgain() {
        RestartPacer pacer = steadyAt(100);
        assertEquals(3, pacer.allowance(2_000, 20, 12), "the last of the devices that go get their share");
        assertEquals(0, pacer.allowance(2_100, 0, 12));
        assertEquals(3, pacer.allowance(2_200, 20, 12), "and those agents are waiting again when devices come back");
    }

    @Test
    void eachMassDepartureIsPacedAfresh() {
        RestartPacer pacer = steadyAt(100);
        assertEquals(5, pacer.allowance(2_000, 10, 50));
        assertEquals(45, pacer.allowance(3_000, 60, 45));
        assertEquals(0, pacer.allowance(4_000, 100, 0));
        assertEquals(5, pacer.allowance(5_000, 10, 50), "the first departure's starts do not count against the second");
    }
}
