package org.siebog.examples.senderreceiver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PrimesTest {

    @Test
    void countsPrimesUpToTheLimit() {
        assertEquals(0, Primes.countUpTo(1));
        assertEquals(1, Primes.countUpTo(2));
        assertEquals(4, Primes.countUpTo(10));
        assertEquals(25, Primes.countUpTo(100));
        assertEquals(2262, Primes.countUpTo(20_000));
    }
}
