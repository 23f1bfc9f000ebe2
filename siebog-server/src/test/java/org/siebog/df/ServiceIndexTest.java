package org.siebog.df;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;
import org.siebog.api.ServiceDescription;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;

class ServiceIndexTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private final ServiceIndex index = new ServiceIndex();

    @Test
    void searchesAnswerInAgentThenNameOrderAndPageByKey() {
        index.put(entry("b", "sell", "books", null));
        index.put(entry("a", "sell", "books", null));
        index.put(entry("a", "buy", "wanted", null));
        index.put(entry("c", "sell", "art", null));

        assertEquals(List.of("a/books", "b/books", "c/art"), names(index.search(ServiceTemplate.ofType("sell"), null, 10, NOW)));
        assertEquals(List.of("a/books", "a/wanted", "b/books", "c/art"), names(index.search(ServiceTemplate.any(), null, 10, NOW)));
        List<ServiceEntry> first = index.search(ServiceTemplate.ofType("sell"), null, 2, NOW);
        assertEquals(List.of("a/books", "b/books"), names(first));
        assertEquals(List.of("c/art"), names(index.search(ServiceTemplate.ofType("sell"), ServiceIndex.key(first.get(1)), 2, NOW)));
        assertEquals(List.of("b/books"), names(index.search(ServiceTemplate.ofType("sell").withName("books"), ServiceIndex.key(first.get(0)), 5, NOW)));
        assertEquals(List.of(), index.search(ServiceTemplate.ofType("lend"), null, 10, NOW));
    }

    @Test
    void anExpiredEntryIsGoneFromSearchesAndCountsBeforeTheCacheRemovesIt() {
        index.put(entry("a", "sell", "soon", NOW.plusSeconds(1)));
        index.put(entry("a", "sell", "later", NOW.plusSeconds(60)));
        Instant then = NOW.plusSeconds(2);
        assertEquals(List.of("a/later"), names(index.search(ServiceTemplate.any(), null, 10, then)));
        assertNull(index.live(ServiceIndex.key(AID.parse("a@siebog"), "soon"), then));
        assertEquals(1, index.liveCountOf(AID.parse("a@siebog"), then));
        assertEquals(2, index.keysOf(AID.parse("a@siebog")).size(), "kept until the cache says it expired");
    }

    @Test
    void aServiceThatChangesTypeMovesAndATypeWithoutEntriesIsForgotten() {
        index.put(entry("a", "sell", "books", null));
        index.put(entry("a", "lend", "books", null));
        assertEquals(List.of(), index.search(ServiceTemplate.ofType("sell"), null, 10, NOW));
        assertEquals(List.of("a/books"), names(index.search(ServiceTemplate.ofType("lend"), null, 10, NOW)));
        index.remove(ServiceIndex.key(AID.parse("a@siebog"), "books"));
        assertEquals(0, index.size());
        assertEquals(List.of(), index.search(ServiceTemplate.ofType("lend"), null, 10, NOW));
    }

    @Test
    void anAgentsKeysAreItsOwnOnlyEvenWhenAnotherNameStartsWithIt() {
        index.put(entry("a", "sell", "x", null));
        index.put(entry("ab", "sell", "y", null));
        assertEquals(List.of(ServiceIndex.key(AID.parse("a@siebog"), "x")), index.keysOf(AID.parse("a@siebog")));
    }

    private static ServiceEntry entry(String agent, String type, String name, Instant expires) {
        return new ServiceEntry(AID.parse(agent + "@siebog"), ServiceDescription.of(type, name), expires);
    }

    private static List<String> names(List<ServiceEntry> entries) {
        return entries.stream().map(e -> e.agent().name() + "/" + e.service().name()).toList();
    }
}
