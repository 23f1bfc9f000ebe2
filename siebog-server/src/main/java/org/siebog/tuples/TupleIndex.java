package org.siebog.tuples;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * This node's copy of the tuple space, in the order the tuples arrived here, kept by the cache's
 * listener (see {@link TupleSpace}). A tuple whose lease ran out counts as gone before the cache's
 * reaper removes it. Small and scanned: a template is matched against the tuples of its arity.
 */
final class TupleIndex {

    /** A tuple as stored: its id (the cache key), its fields, when its lease ends (0: never), and its cache value. */
    record Stored(String id, List<String> fields, long expiresAtMillis, String json) {

        boolean live(long nowMillis) {
            return expiresAtMillis == 0 || nowMillis < expiresAtMillis;
        }
    }

    private final Map<String, Stored> byId = new LinkedHashMap<>();

    synchronized void put(Stored tuple) {
        byId.put(tuple.id(), tuple);
    }

    synchronized Stored remove(String id) {
        return byId.remove(id);
    }

    /** The live tuples that {@code template} matches, oldest here first. */
    synchronized List<Stored> matching(List<String> template, long nowMillis) {
        List<Stored> found = new ArrayList<>();
        for (Stored tuple : byId.values()) {
            if (tuple.live(nowMillis) && matches(template, tuple.fields())) {
                found.add(tuple);
            }
        }
        return found;
    }

    /** Same arity, and every field of the template that is not null equal to the tuple's. */
    static boolean matches(List<String> template, List<String> fields) {
        if (template.size() != fields.size()) {
            return false;
        }
        for (int i = 0; i < template.size(); i++) {
            if (template.get(i) != null && !template.get(i).equals(fields.get(i))) {
                return false;
            }
        }
        return true;
    }

    synchronized int size() {
        return byId.size();
    }

    synchronized List<String> ids() {
        return List.copyOf(byId.keySet());
    }
}
