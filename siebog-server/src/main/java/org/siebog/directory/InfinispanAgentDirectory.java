package org.siebog.directory;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryExpired;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryModified;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryRemoved;
import org.infinispan.notifications.cachelistener.annotation.TopologyChanged;
import org.infinispan.notifications.cachelistener.event.CacheEntryEvent;
import org.infinispan.notifications.cachelistener.event.TopologyChangedEvent;
import org.siebog.api.AID;
import org.siebog.platform.CopiesRetaken;

/**
 * The directory as a replicated Infinispan cache (container {@code siebog}, cache {@code directory},
 * defined in {@code cluster-profile.cli}): every node has a full copy, so lookups are local reads;
 * a registration is a synchronous cluster-wide {@code putIfAbsent}, so a name is taken once in the
 * whole cluster. There is no central node.
 *
 * <p>Looked-up entries are kept parsed until the cache says the entry changed: routing looks up
 * the receiver of every message, and even a local read of the cache went through its whole
 * interceptor chain (8% of a node's samples in the two-node Sender/Receiver run).
 */
@ApplicationScoped
public class InfinispanAgentDirectory implements AgentDirectory {

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/directory")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
        cache.addListener(changeListener);
    }

    /** The cache outlives a deployment: an undeployed listener would keep its class loader. */
    @PreDestroy
    void stopListening() {
        cache.removeListener(changeListener);
    }

    private AdvancedCache<String, String> cache;

    /** Entries looked up since they last changed. */
    private final ConcurrentMap<AID, DirectoryEntry> looked = new ConcurrentHashMap<>();
    /** Counts the changes seen, so a lookup that raced with one does not keep what it read. */
    private final AtomicLong changes = new AtomicLong();
    private final Changes changeListener = new Changes();

    /** This node took its copies of the caches again (it rejoined after a split): the listener went with the old copy. */
    void copiesRetaken(@Observes(notifyObserver = Reception.IF_EXISTS) CopiesRetaken retaken) {
        cache.addListener(changeListener);
        changes.incrementAndGet();
        looked.clear();
    }

    @Override
    public boolean register(DirectoryEntry entry) {
        return cache.putIfAbsent(entry.aid().toString(), entry.toJson()) == null;
    }

    @Override
    public Optional<DirectoryEntry> lookup(AID aid) {
        DirectoryEntry known = looked.get(aid);
        if (known != null) {
            return Optional.of(known);
        }
        long seen = changes.get();
        String json = cache.get(aid.toString());
        if (json == null) {
            return Optional.empty(); // not kept: the next lookup reads the cache again
        }
        DirectoryEntry entry = DirectoryEntry.fromJson(aid, json);
        if (changes.get() == seen) {
            looked.put(aid, entry);
            if (changes.get() != seen) {
                looked.remove(aid); // a change came between the check and the put: it may be this entry's
            }
        }
        return Optional.of(entry);
    }

    @Override
    public void update(DirectoryEntry entry) {
        cache.withFlags(Flag.IGNORE_RETURN_VALUES).put(entry.aid().toString(), entry.toJson());
    }

    @Override
    public boolean claim(String from, DirectoryEntry entry) {
        String key = entry.aid().toString();
        while (true) {
            String current = cache.get(key);
            if (current == null || !DirectoryEntry.fromJson(entry.aid(), current).node().equals(from)) {
                return false;
            }
            if (cache.replace(key, current, entry.toJson())) { // a compare-and-set on the key's primary owner
                return true;
            }
        }
    }

    @Override
    public void unregister(AID aid) {
        cache.withFlags(Flag.IGNORE_RETURN_VALUES).remove(aid.toString());
    }

    /**
     * Forgets what changed, once the change is in the cache (so a lookup after this reads it). A
     * change of members forgets everything: entries moved by state transfer or a merge are not
     * reported one by one.
     */
    @Listener(observation = Listener.Observation.POST)
    public final class Changes {

        @CacheEntryCreated
        @CacheEntryModified
        @CacheEntryRemoved
        @CacheEntryExpired
        public void changed(CacheEntryEvent<String, String> event) {
            changes.incrementAndGet();
            looked.remove(AID.parse(event.getKey()));
        }

        @TopologyChanged
        public void membersChanged(TopologyChangedEvent<String, String> event) {
            changes.incrementAndGet();
            looked.clear();
        }
    }

    @Override
    public Collection<DirectoryEntry> all() {
        return cache.entrySet().stream().map(e -> DirectoryEntry.fromJson(AID.parse(e.getKey()), e.getValue())).toList();
    }
}
