package org.siebog.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class PagingTest {

    private static final Function<String, String> KEY = Function.identity();

    @Test
    void withoutALimitEveryEntryComesInKeyOrder() {
        Paging.Page<String> all = Paging.of(List.of("c", "a", "b").stream(), KEY, null, null);
        assertEquals(List.of("a", "b", "c"), all.items());
        assertNull(all.next());
    }

    @Test
    void pagesFollowTheirCursorsToTheEndWithNoGapOrRepeat() {
        List<String> keys = IntStream.range(0, 2_345).mapToObj(i -> "agent-" + i + "@siebog").toList();
        List<String> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Paging.Page<String> page = Paging.of(keys.stream(), KEY, "100", cursor);
            listed.addAll(page.items());
            cursor = page.next();
            pages++;
        } while (cursor != null);
        assertEquals(24, pages);
        assertEquals(new ArrayList<>(new TreeSet<>(keys)), listed);
    }

    @Test
    void entriesThatComeAndGoBetweenPagesNeitherShiftNorRepeatTheOthers() {
        TreeSet<String> live = new TreeSet<>();
        IntStream.range(0, 1_000).forEach(i -> live.add(String.format("k%04d", i)));
        TreeSet<String> throughout = new TreeSet<>(live);
        List<String> listed = new ArrayList<>();
        String cursor = null;
        int round = 0;
        do {
            Paging.Page<String> page = Paging.of(new ArrayList<>(live).stream(), KEY, "64", cursor);
            listed.addAll(page.items());
            cursor = page.next();
            // Between pages: one entry goes, one new one comes (on either side of the cursor).
            String gone = String.format("k%04d", 7 * round + 3);
            live.remove(gone);
            throughout.remove(gone);
            live.add(String.format("k%04d-new", 11 * round));
            round++;
        } while (cursor != null);
        assertEquals(listed.size(), new TreeSet<>(listed).size(), "no entry twice");
        assertTrue(listed.containsAll(throughout), "every entry that was there throughout was listed");
    }

    @Test
    void aLimitOutOfRangeOrACursorNotGivenOutIsRefused() {
        for (String limit : List.of("0", "-1", "1001", "ten", "")) {
            Paging.BadQueryException refused = assertThrows(Paging.BadQueryException.class,
                    () -> Paging.of(List.of("a").stream(), KEY, limit, null));
            assertTrue(refused.getMessage().contains("'limit' must be a whole number from 1 to 1000"), refused.getMessage());
            assertEquals(400, refused.status());
        }
        Paging.BadQueryException badCursor = assertThrows(Paging.BadQueryException.class,
                () -> Paging.of(List.of("a").stream(), KEY, "10", "not a cursor!"));
        assertTrue(badCursor.getMessage().contains("follow the Link header"), badCursor.getMessage());
        assertThrows(Paging.BadQueryException.class, () -> Paging.of(List.of("a").stream(), KEY, null, "YQ"));
    }
}
