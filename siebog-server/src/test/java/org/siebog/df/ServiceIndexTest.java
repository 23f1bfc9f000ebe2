package org.siebog.df;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.StringReader;
import java.time.Instant;
import java.util.List;

import jakarta.json.Json;

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
        put(entry("b", "sell", "books", null));
        put(entry("a", "sell", "books", null));
        put(entry("a", "buy", "wanted", null));
        put(entry("c", "sell", "art", null));

        assertEquals(List.of("a/books", "b/books", "c/art"), names(index.search(ServiceTemplate.ofType("sell"), null, 10, NOW)));
        assertEquals(List.of("a/books", "a/wanted", "b/books", "c/art"), names(index.search(ServiceTemplate.any(), null, 10, NOW)));
        List<ServiceIndex.Indexed> first = index.search(ServiceTemplate.ofType("sell"), null, 2, NOW);
        assertEquals(List.of("a/books", "b/books"), names(first));
        assertEquals(List.of("c/art"), names(index.search(ServiceTemplate.ofType("sell"), ServiceIndex.key(first.get(1).entry()), 2, NOW)));
        assertEquals(List.of("b/books"), names(index.search(ServiceTemplate.ofType("sell").withName("books"), ServiceIndex.key(first.get(0).entry()), 5, NOW)));
        assertEquals(List.of(), names(index.search(ServiceTemplate.ofType("lend"), null, 10, NOW)));
    }

    @Test
    void anExpiredEntryIsGoneFromSearchesAndCountsBeforeTheCacheRemovesIt() {
        put(entry("a", "sell", "soon", NOW.plusSeconds(1)));
        put(entry("a", "sell", "later", NOW.plusSeconds(60)));
        Instant then = NOW.plusSeconds(2);
        assertEquals(List.of("a/later"), names(index.search(ServiceTemplate.any(), null, 10, then)));
        assertNull(index.live(ServiceIndex.key(AID.parse("a@siebog"), "soon"), then));
        assertEquals(1, index.liveCountOf(AID.parse("a@siebog"), then));
        assertEquals(2, index.keysOf(AID.parse("a@siebog")).size(), "kept until the cache says it expired");
    }

    @Test
    void aServiceThatChangesTypeMovesAndATypeWithoutEntriesIsForgotten() {
        put(entry("a", "sell", "books", null));
        put(entry("a", "lend", "books", null));
        assertEquals(List.of(), names(index.search(ServiceTemplate.ofType("sell"), null, 10, NOW)));
        assertEquals(List.of("a/books"), names(index.search(ServiceTemplate.ofType("lend"), null, 10, NOW)));
        index.remove(ServiceIndex.key(AID.parse("a@siebog"), "books"));
        assertEquals(0, index.size());
        assertEquals(List.of(), names(index.search(ServiceTemplate.ofType("lend"), null, 10, NOW)));
    }

    @Test
    void anAgentsKeysAreItsOwnOnlyEvenWhenAnotherNameStartsWithIt() {
        put(entry("a", "sell", "x", null));
        put(entry("ab", "sell", "y", null));
        assertEquals(List.of(ServiceIndex.key(AID.parse("a@siebog"), "x")), index.keysOf(AID.parse("a@siebog")));
    }

    private static ServiceEntry entry(String agent, String type, String name, Instant expires) {
        return new ServiceEntry(AID.parse(agent + "@siebog"), ServiceDescription.of(type, name), expires);
    }

    /** As the directory's listener does: with the entry's JSON as the cache holds it. */
    private void put(ServiceEntry entry) {
        index.put(entry, ServiceJson.entry(entry).toString());
    }

    private static List<String> names(List<ServiceIndex.Indexed> found) {
        return found.stream().map(ServiceIndex.Indexed::entry).map(e -> e.agent().name() + "/" + e.service().name()).toList();
    }

    @Test
    void aSearchFindsEachEntryWithItsJsonAsTheCacheHoldsIt() {
        ServiceEntry entry = new ServiceEntry(AID.parse("a@siebog"), ServiceDescription.of("sell", "books").withProtocols("fipa-request")
                .withProperty("currency", "EUR"), NOW.plusSeconds(60));
        put(entry);
        ServiceIndex.Indexed found = index.search(ServiceTemplate.ofType("sell"), null, 10, NOW).get(0);
        assertEquals(entry, found.entry());
        assertEquals(entry, ServiceJson.readEntry(Json.createReader(new StringReader(found.json())).readObject()),
                "the text is the entry's");
    }
}
