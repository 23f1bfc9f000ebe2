package org.siebog.perf.senderreceiver.jade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.siebog.perf.senderreceiver.RunParameters;

/** What the benchmark tells the two JADE JVMs, and how both sides name the Receivers. */
class TwoContainerArgsTest {

    @Test
    void theReceiversJvmGetsItsPortAndThePairs() {
        JadeReceiverContainer.Args args = new JadeReceiverContainer.Args(41_001, 1000);
        assertEquals(List.of("41001", "1000"), args.toArgs());
        assertEquals(args, JadeReceiverContainer.Args.fromArgs(args.toArgs().toArray(String[]::new)));
    }

    @Test
    void theSendersJvmGetsBothPortsAndTheRunParameters() {
        RunParameters parameters = new RunParameters(100, 7, 1000, 200, 300);
        JadeSenderContainer.Args args = new JadeSenderContainer.Args(41_001, 41_002, parameters);
        assertEquals(List.of("41001", "41002", "100", "7", "1000", "200", "300"), args.toArgs());
        assertEquals(args, JadeSenderContainer.Args.fromArgs(args.toArgs().toArray(String[]::new)));
    }

    @Test
    void malformedArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> JadeReceiverContainer.Args.fromArgs("41001"));
        assertThrows(IllegalArgumentException.class, () -> JadeReceiverContainer.Args.fromArgs("port", "10"));
        assertThrows(IllegalArgumentException.class, () -> JadeSenderContainer.Args.fromArgs("41001"));
        assertThrows(IllegalArgumentException.class, () -> JadeSenderContainer.Args.fromArgs("41001", "41002", "100"));
    }

    @Test
    void theReceiversAreStartedUnderTheNamesTheSendersAddress() {
        assertEquals(List.of("receiver-0", "receiver-1", "receiver-2"), JadeReceiverContainer.receiverNames(3));
        assertEquals(JadeRun.receiverName(999), JadeReceiverContainer.receiverNames(1000).get(999));
        assertEquals(List.of(), JadeReceiverContainer.receiverNames(0));
    }
}
