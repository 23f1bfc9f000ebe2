package org.siebog.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;

import org.infinispan.AdvancedCache;
import org.infinispan.factories.ComponentRegistry;
import org.infinispan.manager.EmbeddedCacheManager;

/**
 * This node's copies of the cluster's caches (the directory, the node list, the agents' saved states
 * and the rest of the {@code siebog} cache container): dropped before the node merges back with a side
 * of a split that went on without it, taken again, from that side, when it rejoins.
 *
 * <p>Why: when two sides of a split merge, Infinispan keeps of each entry the copy of the side it
 * prefers (merge policy {@code PREFERRED_ALWAYS}): the side whose topology the most members report,
 * then the one with the most owners and members, then the one with the higher topology id
 * ({@code PreferAvailabilityStrategy}). The side that went on holds the quorum, so it is the larger one,
 * except after an even split (2|2, or two nodes that lose each other), where the older half goes on:
 * there the two tie on members, and the topology id of the half that had to choose a new coordinator
 * comes out the higher. The merge then kept the stopped half's copies: the agents placed where they
 * ran before the split, their states as saved then, and what the other half did meanwhile undone.
 * A node without copies takes no part in a merge: it joins the caches as a new node does, and gets
 * the other side's copies by state transfer.
 *
 * <p>The inbox log is kept: its segments are named after the nodes that wrote them, so its copies
 * never conflict, and they may hold messages that only this side had logged before the split.
 */
final class LocalCopies {

    private static final Logger LOG = Logger.getLogger(LocalCopies.class.getName());
    /** Never conflicts on a merge (see above). */
    private static final String INBOX_LOG = "inbox";

    private final EmbeddedCacheManager container;
    /** Told once the copies are taken again: their listeners went with them, and what was built from them is stale. */
    private final Runnable retaken;
    /** The caches whose copies this node dropped, by name (held: the container would not hand a stopped one out); guarded by this. */
    private final Map<String, AdvancedCache<?, ?>> dropped = new TreeMap<>();

    LocalCopies(EmbeddedCacheManager container, Runnable retaken) {
        this.container = container;
        this.retaken = retaken;
    }

    /** Stops this node's copy of every running cache of the container but the inbox log: its entries are gone, and it leaves the cache's members. */
    synchronized void drop() {
        long began = System.nanoTime();
        for (String name : container.getCacheNames()) {
            if (!name.equals(INBOX_LOG) && container.isRunning(name)) {
                AdvancedCache<?, ?> cache = raw(name);
                dropped.put(name, cache);
                cache.stop();
            }
        }
        String names = dropped.keySet().toString(); // sorted: a TreeMap
        LOG.warning(() -> String.format("dropped this node's copies of %s in %.0f ms: the other side of the split went on without it;"
                + " it takes them again from that side when it rejoins", names, (System.nanoTime() - began) / 1e6));
    }

    /**
     * Starts every cache {@link #drop} stopped: each joins its members afresh and receives their
     * entries before it returns. Then tells whoever listens to the caches (see the constructor).
     */
    synchronized void retake() {
        if (dropped.isEmpty()) {
            return;
        }
        long began = System.nanoTime();
        List<String> taken = new ArrayList<>();
        for (String name : List.copyOf(dropped.keySet())) {
            dropped.get(name).start();
            dropped.remove(name);
            taken.add(name);
        }
        retaken.run();
        LOG.info(() -> String.format("took copies of %s again in %.0f ms", taken, (System.nanoTime() - began) / 1e6));
    }

    /**
     * The cache itself: the one the container hands out (and WildFly's injection) does nothing on
     * {@code start} and {@code stop}, as it must for applications; WildFly restarts its caches the same
     * way when the server is suspended and resumed.
     */
    private AdvancedCache<?, ?> raw(String name) {
        return ComponentRegistry.of(container.getCache(name)).getCache().wired();
    }
}
