package org.siebog.state;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.siebog.directory.StringCaches;

/**
 * Every agent's current state version, cluster-wide: the Infinispan cache {@code state-versions}
 * (distributed, siebog.replication.copies owners). Advancing a version is a compare-and-set on the key's primary owner,
 * so of two devices saving the same version exactly one wins, on any nodes; Cassandra then only
 * has to keep the highest version it is given, which plain writes do (no lightweight transaction).
 *
 * <p>An entry is learnt from the store the first time an agent is seen, so the cache may lose
 * entries (a whole-cluster restart) without losing anything but a read.
 */
@ApplicationScoped
public class StateVersions {

    private AdvancedCache<String, String> cache;

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/state-versions")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
    }

    /** The version, or null when this agent's is not known yet (then ask the store and {@link #learn} it). */
    CompletionStage<Long> cached(String aid) {
        return cache.getAsync(aid).thenApply(v -> v == null ? null : Long.valueOf(v));
    }

    /**
     * Records what the store holds, unless a higher version is known already; returns the version now
     * current (a save may have taken a version the store never got: that one counts).
     */
    CompletionStage<Long> learn(String aid, long stored) {
        // A read first: on a known agent (every load of a running one) it is all that is needed.
        return cache.getAsync(aid).thenCompose(known -> known != null && Long.parseLong(known) >= stored
                ? CompletableFuture.completedFuture(Long.parseLong(known))
                : cache.putIfAbsentAsync(aid, Long.toString(stored)).thenCompose(previous -> record(aid, stored, previous)));
    }

    /** After putIfAbsent: {@code previous} is what was there (null: ours went in). */
    private CompletionStage<Long> record(String aid, long stored, String previous) {
        if (previous == null) {
            return CompletableFuture.completedFuture(stored);
        }
        long known = Long.parseLong(previous);
        if (known >= stored) {
            return CompletableFuture.completedFuture(known);
        }
        return cache.replaceAsync(aid, previous, Long.toString(stored))
                .thenCompose(replaced -> replaced ? CompletableFuture.completedFuture(stored) : learn(aid, stored));
    }

    /** Moves {@code aid} from version {@code from} to {@code from + 1} if it is still at {@code from}. */
    CompletionStage<Boolean> advance(String aid, long from) {
        return cache.replaceAsync(aid, Long.toString(from), Long.toString(from + 1));
    }

    /** Drops the entry if it is still {@code version} (the store holds it now, so it can be learnt again). */
    CompletionStage<Boolean> forget(String aid, long version) {
        return cache.removeAsync(aid, Long.toString(version));
    }
}
