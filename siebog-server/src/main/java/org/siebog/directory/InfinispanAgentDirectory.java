package org.siebog.directory;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.siebog.agent.AID;

/**
 * The directory as a replicated Infinispan cache (container {@code siebog}, cache {@code directory},
 * defined in {@code cluster-profile.cli}): every node has a full copy, so lookups are local reads;
 * a registration is a synchronous cluster-wide {@code putIfAbsent}, so a name is taken once in the
 * whole cluster. There is no central node.
 */
@ApplicationScoped
public class InfinispanAgentDirectory implements AgentDirectory {

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/directory")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
    }

    private AdvancedCache<String, String> cache;

    @Override
    public boolean register(DirectoryEntry entry) {
        return cache.putIfAbsent(entry.aid().toString(), entry.toJson()) == null;
    }

    /** Parsed entries, reused while the cached JSON is unchanged: routing looks up every remote message. */
    private final ConcurrentMap<AID, Parsed> parsed = new ConcurrentHashMap<>();

    private record Parsed(String json, DirectoryEntry entry) {
    }

    @Override
    public Optional<DirectoryEntry> lookup(AID aid) {
        String json = cache.get(aid.toString());
        if (json == null) {
            parsed.remove(aid);
            return Optional.empty();
        }
        Parsed p = parsed.get(aid);
        if (p == null || !p.json().equals(json)) {
            p = new Parsed(json, DirectoryEntry.fromJson(aid, json));
            parsed.put(aid, p);
        }
        return Optional.of(p.entry());
    }

    @Override
    public void update(DirectoryEntry entry) {
        cache.withFlags(Flag.IGNORE_RETURN_VALUES).put(entry.aid().toString(), entry.toJson());
    }

    @Override
    public void unregister(AID aid) {
        cache.withFlags(Flag.IGNORE_RETURN_VALUES).remove(aid.toString());
    }

    @Override
    public Collection<DirectoryEntry> all() {
        return cache.entrySet().stream().map(e -> DirectoryEntry.fromJson(AID.parse(e.getKey()), e.getValue())).toList();
    }
}
