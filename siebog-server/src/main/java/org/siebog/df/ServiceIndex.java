package org.siebog.df;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListMap;

import org.siebog.api.AID;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;

/**
 * This node's copy of the directory, parsed and in key order (agent, then service name), with the
 * entries of each type apart: a search reads no JSON, a search by type looks only at that type, and
 * a page stops at its last entry. Kept by the cache's listener (see {@link ServiceDirectory}); an
 * entry whose lease ran out counts as gone here before the cache's reaper removes it.
 */
final class ServiceIndex {

    /** An entry, and its JSON text as the cache holds it ({@link ServiceJson#entry}): what a search's answer is made of. */
    record Indexed(ServiceEntry entry, String json) {
    }

    private static final NavigableMap<String, Indexed> NONE = Collections.emptyNavigableMap();
    /** Between an agent and a service name in a key: no AID holds it, so an agent's keys are one range. */
    private static final char SEPARATOR = '\n';

    private final ConcurrentSkipListMap<String, Indexed> byKey = new ConcurrentSkipListMap<>();
    private final ConcurrentMap<String, ConcurrentSkipListMap<String, Indexed>> byType = new ConcurrentHashMap<>();

    static String key(AID agent, String serviceName) {
        return agent.toString() + SEPARATOR + serviceName;
    }

    static String key(ServiceEntry entry) {
        return key(entry.agent(), entry.service().name());
    }

    /** @param json the entry as the cache holds it */
    void put(ServiceEntry entry, String json) {
        String key = key(entry);
        Indexed indexed = new Indexed(entry, json);
        Indexed old = byKey.put(key, indexed);
        if (old != null && !old.entry().service().type().equals(entry.service().type())) {
            removeFromType(old.entry().service().type(), key);
        }
        byType.compute(entry.service().type(), (type, entries) -> {
            ConcurrentSkipListMap<String, Indexed> ofType = entries != null ? entries : new ConcurrentSkipListMap<>();
            ofType.put(key, indexed);
            return ofType;
        });
    }

    /** Removes the entry of {@code key}; returns it, or null when there was none. */
    ServiceEntry remove(String key) {
        Indexed old = byKey.remove(key);
        if (old == null) {
            return null;
        }
        removeFromType(old.entry().service().type(), key);
        return old.entry();
    }

    /** Empties a type's map when its last entry goes: types are named by agents, so none may linger. */
    private void removeFromType(String type, String key) {
        byType.computeIfPresent(type, (t, entries) -> {
            entries.remove(key);
            return entries.isEmpty() ? null : entries;
        });
    }

    /** The entry of {@code key} whose lease has not run out, or null. */
    ServiceEntry live(String key, Instant now) {
        Indexed indexed = byKey.get(key);
        return indexed != null && live(indexed.entry(), now) ? indexed.entry() : null;
    }

    /** The keys of {@code agent}'s entries, expired ones included. */
    List<String> keysOf(AID agent) {
        String prefix = agent.toString() + SEPARATOR;
        return new ArrayList<>(byKey.subMap(prefix, prefix + Character.MAX_VALUE).keySet());
    }

    long liveCountOf(AID agent, Instant now) {
        String prefix = agent.toString() + SEPARATOR;
        return byKey.subMap(prefix, prefix + Character.MAX_VALUE).values().stream().filter(e -> live(e.entry(), now)).count();
    }

    /** At most {@code limit} live entries that match, in key order, after the key {@code after} (null: from the first). */
    List<Indexed> search(ServiceTemplate template, String after, int limit, Instant now) {
        NavigableMap<String, Indexed> source = template.type() == null ? byKey : ofType(template.type());
        if (after != null) {
            source = source.tailMap(after, false);
        }
        List<Indexed> found = new ArrayList<>(Math.min(limit, 64));
        for (Indexed indexed : source.values()) {
            if (live(indexed.entry(), now) && template.matches(indexed.entry().service())) {
                found.add(indexed);
                if (found.size() == limit) {
                    break;
                }
            }
        }
        return found;
    }

    private NavigableMap<String, Indexed> ofType(String type) {
        NavigableMap<String, Indexed> entries = byType.get(type);
        return entries != null ? entries : NONE;
    }

    /** The keys held here, for a rebuild to drop those the cache no longer has. */
    List<String> keys() {
        return new ArrayList<>(byKey.keySet());
    }

    int size() {
        return byKey.size();
    }

    private static boolean live(ServiceEntry entry, Instant now) {
        return entry.expires() == null || entry.expires().isAfter(now);
    }
}
