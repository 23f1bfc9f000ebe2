package org.siebog.perf.senderreceiver.child;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.siebog.perf.senderreceiver.RunParameters;

/** What the benchmark tells a reference's two JVMs, and how every side names the Receivers. */
class ChildArgsTest {

    @Test
    void aOneJvmRunGetsHowOftenToRunAndTheRunParameters() {
        ChildArgs.OneJvm args = new ChildArgs.OneJvm(3, new RunParameters(100, 7, 1000, 200, 300));
        assertEquals(List.of("3", "100", "7", "1000", "200", "300"), args.toArgs());
        assertEquals(args, ChildArgs.OneJvm.fromArgs(args.toArgs().toArray(String[]::new)));
    }

    @Test
    void theReceiversJvmGetsItsPortTheRunsThePairsAndThePrimeLimit() {
        ChildArgs.Receivers args = new ChildArgs.Receivers(41_001, 2, 1000, 5000);
        assertEquals(List.of("41001", "2", "1000", "5000"), args.toArgs());
        assertEquals(args, ChildArgs.Receivers.fromArgs(args.toArgs().toArray(String[]::new)));
    }

    @Test
    void theSendersJvmGetsBothPortsTheRunsAndTheRunParameters() {
        RunParameters parameters = new RunParameters(100, 7, 1000, 200, 300);
        ChildArgs.Senders args = new ChildArgs.Senders(41_001, 41_002, 2, parameters);
        assertEquals(List.of("41001", "41002", "2", "100", "7", "1000", "200", "300"), args.toArgs());
        assertEquals(args, ChildArgs.Senders.fromArgs(args.toArgs().toArray(String[]::new)));
    }

    @Test
    void malformedArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ChildArgs.OneJvm.fromArgs());
        assertThrows(IllegalArgumentException.class, () -> ChildArgs.OneJvm.fromArgs("1", "100"));
        assertThrows(IllegalArgumentException.class, () -> ChildArgs.Receivers.fromArgs("41001"));
        assertThrows(IllegalArgumentException.class, () -> ChildArgs.Receivers.fromArgs("port", "1", "10", "0"));
        assertThrows(IllegalArgumentException.class, () -> ChildArgs.Senders.fromArgs("41001"));
        assertThrows(IllegalArgumentException.class, () -> ChildArgs.Senders.fromArgs("41001", "41002", "1", "100"));
    }

    @Test
    void eachRunHasReceiversOfItsOwnNamedByRunAndPair() {
        assertEquals("receiver-0-0", ChildArgs.receiverName(0, 0));
        assertEquals("receiver-1-999", ChildArgs.receiverName(1, 999));
    }
}
