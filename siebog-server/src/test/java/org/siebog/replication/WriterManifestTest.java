package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

class WriterManifestTest {

    private static List<Long> candidates(WriterManifest m, long from, long upTo) {
        List<Long> numbers = new ArrayList<>();
        m.candidates(from, upTo, numbers::add);
        return numbers;
    }

    @Test
    void liveSegmentsAreKeptAsRunsAndTheNextNumbersAreReserved() {
        WriterManifest m = WriterManifest.before(20, new TreeSet<>(List.of(3L, 4L, 5L, 9L, 17L, 18L)));
        assertEquals(List.of(new WriterManifest.Run(3, 5), new WriterManifest.Run(9, 9), new WriterManifest.Run(17, 18)), m.live());
        assertEquals(19, m.written());
        assertEquals(19 + WriterManifest.RESERVE, m.reserved());
    }

    @Test
    void candidatesAreTheLiveNumbersAndTheReservedOnesInRange() {
        WriterManifest m = WriterManifest.before(20, new TreeSet<>(List.of(3L, 4L, 5L, 9L, 17L, 18L)));
        assertEquals(List.of(4L, 5L, 9L, 17L, 18L, 20L, 21L), candidates(m, 4, 21));
        long lastReserved = 19 + WriterManifest.RESERVE;
        assertEquals(List.of(lastReserved), candidates(m, lastReserved, Long.MAX_VALUE));
        assertEquals(List.of(), candidates(m, lastReserved + 1, Long.MAX_VALUE));
    }

    @Test
    void aFirstManifestReservesFromOne() {
        WriterManifest m = WriterManifest.before(1, new TreeSet<>());
        assertEquals(List.of(), m.live());
        assertEquals(List.of(1L, 2L), candidates(m, 0, 2));
    }

    @Test
    void aManifestSurvivesItsEncoding() {
        WriterManifest m = WriterManifest.before(300, new TreeSet<>(List.of(1L, 250L, 251L)));
        assertEquals(m, WriterManifest.decode(m.encode()));
        WriterManifest empty = WriterManifest.before(1, new TreeSet<>());
        assertEquals(empty, WriterManifest.decode(empty.encode()));
    }
}
