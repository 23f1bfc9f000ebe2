package org.siebog.tuples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class TupleIndexTest {

    private final TupleIndex index = new TupleIndex();

    @Test
    void aTemplateMatchesTuplesOfItsLengthWhoseFieldsEqualItsNonNullOnes() {
        assertTrue(TupleIndex.matches(Arrays.asList("job", null), List.of("job", "7")));
        assertTrue(TupleIndex.matches(Arrays.asList(null, null), List.of("job", "7")));
        assertFalse(TupleIndex.matches(Arrays.asList("job", null), List.of("job", "7", "x")), "another length");
        assertFalse(TupleIndex.matches(Arrays.asList("task", null), List.of("job", "7")));
    }

    @Test
    void matchesComeOldestFirstAndExpiredOnesNot() {
        index.put(tuple("a", 0, "job", "1"));
        index.put(tuple("b", 1_000, "job", "2"));
        index.put(tuple("c", 0, "task", "3"));
        index.put(tuple("d", 0, "job", "4"));
        assertEquals(List.of("a", "b", "d"), ids(index.matching(Arrays.asList("job", null), 500)));
        assertEquals(List.of("a", "d"), ids(index.matching(Arrays.asList("job", null), 1_000)), "b's lease ended at 1,000");
        index.remove("a");
        assertEquals(List.of("d"), ids(index.matching(Arrays.asList("job", null), 2_000)));
        assertEquals(3, index.size());
    }

    private static TupleIndex.Stored tuple(String id, long expires, String... fields) {
        return new TupleIndex.Stored(id, List.of(fields), expires, "{}");
    }

    private static List<String> ids(List<TupleIndex.Stored> tuples) {
        return tuples.stream().map(TupleIndex.Stored::id).toList();
    }
}
