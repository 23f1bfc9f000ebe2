package org.siebog.df;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;
import jakarta.json.spi.JsonProvider;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryExpired;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryModified;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryRemoved;
import org.infinispan.notifications.cachelistener.annotation.DataRehashed;
import org.infinispan.notifications.cachelistener.annotation.TopologyChanged;
import org.infinispan.notifications.cachelistener.event.CacheEntryEvent;
import org.infinispan.notifications.cachelistener.event.Event;

import org.siebog.api.AID;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.ServiceDescription;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;
import org.siebog.api.UnknownAgentException;
import org.siebog.api.UnknownServiceException;
import org.siebog.cluster.ClusterNode;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.StringCaches;
import org.siebog.platform.CopiesRetaken;

/**
 * The directory facilitator's entries: a replicated Infinispan cache (container {@code siebog},
 * cache {@code services}, defined in {@code cluster-profile.cli}) keyed by agent and service name,
 * holding each entry as JSON, with the lease as the entry's lifespan. Every node has every entry,
 * so the directory has no central node and outlives any node; writes reach every node before they
 * complete; searches read {@link ServiceIndex}, this node's parsed copy, which the cache's
 * listener keeps.
 *
 * <p>The node that makes a change tells the subscribers ({@link ServiceSubscriptions}) from the
 * cache's listener. Writes return futures that complete when every node has the change: the FIPA agent
 * {@code df@<platform>} answers from them without holding its lane.
 */
@ApplicationScoped
public class ServiceDirectory {

    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    AgentDirectory agents;

    @Inject
    ServiceSubscriptions subscriptions;

    @Inject
    ClusterNode cluster;

    private AdvancedCache<String, String> cache;
    private final ServiceIndex index = new ServiceIndex();
    private final Changes changes = new Changes();
    private final Clock clock = Clock.systemUTC();

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/services")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
        cache.addListener(changes);
        rebuild();
    }

    /** The cache outlives a deployment: an undeployed listener would keep its class loader. */
    @PreDestroy
    void stopListening() {
        cache.removeListener(changes);
    }

    /**
     * Registers {@code service} for {@code agent}, replacing the agent's service of that name;
     * with {@code mustExist}, only when there is one (FIPA's modify).
     */
    public CompletableFuture<ServiceEntry> register(AID agent, ServiceDescription service, Duration lease, boolean mustExist) {
        ServiceLimits.check(service);
        ServiceLimits.checkLease(lease);
        if (agents.lookup(agent).isEmpty()) {
            throw new UnknownAgentException(agent);
        }
        Instant now = clock.instant();
        String key = ServiceIndex.key(agent, service.name());
        boolean registered = index.live(key, now) != null;
        if (mustExist && !registered) {
            throw new UnknownServiceException(agent, service.name());
        }
        int max = ServiceLimits.maxServicesPerAgent();
        if (!registered && index.liveCountOf(agent, now) >= max) {
            throw new InvalidAgentRequestException("agent " + agent + " already has " + max
                    + " services in the directory, as many as one agent may (siebog.df.max-services-per-agent)");
        }
        ServiceEntry entry = new ServiceEntry(agent, service, lease == null ? null : now.plus(lease));
        return putLeased(cache, key, ServiceJson.entry(entry).toString(), lease).thenApply(ignored -> entry);
    }

    public CompletableFuture<Void> deregister(AID agent, String serviceName) {
        String key = ServiceIndex.key(agent, serviceName);
        if (index.live(key, clock.instant()) == null) {
            throw new UnknownServiceException(agent, serviceName);
        }
        return cache.withFlags(Flag.IGNORE_RETURN_VALUES).removeAsync(key).thenApply(ignored -> null);
    }

    /**
     * A page of a search: its entries, each one's JSON text as the directory holds it (the same
     * order), and whether more follow.
     */
    public record Page(List<ServiceEntry> entries, List<String> json, boolean more) {
    }

    /**
     * The live entries that match, at most {@code maxResults}, in key order ({@link #keyOf}:
     * agent, then service name), after the key {@code afterKey} (null: from the first).
     */
    public Page search(ServiceTemplate template, String afterKey, int maxResults) {
        ServiceLimits.check(template);
        ServiceLimits.checkMaxResults(maxResults);
        List<ServiceIndex.Indexed> found = index.search(template, afterKey, maxResults + 1, clock.instant());
        boolean more = found.size() > maxResults;
        List<ServiceIndex.Indexed> page = more ? found.subList(0, maxResults) : found;
        return new Page(page.stream().map(ServiceIndex.Indexed::entry).toList(), page.stream().map(ServiceIndex.Indexed::json).toList(), more);
    }

    /** Where an entry is in the order of searches: a page's last key is the cursor to the next. */
    public static String keyOf(ServiceEntry entry) {
        return ServiceIndex.key(entry);
    }

    /** Writes {@code json} under {@code key} on every node, to expire after {@code lease} (null: never). */
    static CompletableFuture<String> putLeased(AdvancedCache<String, String> cache, String key, String json, Duration lease) {
        AdvancedCache<String, String> writer = cache.withFlags(Flag.IGNORE_RETURN_VALUES);
        return lease == null ? writer.putAsync(key, json) : writer.putAsync(key, json, lease.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Removes every entry of an agent that stopped (its leases need not run out first). */
    public void agentStopped(AID agent) {
        AdvancedCache<String, String> writer = cache.withFlags(Flag.IGNORE_RETURN_VALUES);
        index.keysOf(agent).forEach(writer::remove);
    }

    /**
     * Whether this node tells the subscribers that the entry of {@code key} expired: every node
     * expires its copy on its own, so one is chosen by the key, the same on every node.
     */
    private boolean tellsOfExpiry(String key) {
        List<String> members = cluster.members();
        return members.get(Math.floorMod(key.hashCode(), members.size())).equals(cluster.name());
    }

    /**
     * Reads the whole cache into the index and drops what the cache no longer has: at start, and
     * when members change (entries that arrive by state transfer are not reported one by one).
     */
    /** This node took its copies of the caches again (it rejoined after a split): the listener went with the old copy. */
    void copiesRetaken(@Observes(notifyObserver = Reception.IF_EXISTS) CopiesRetaken retaken) {
        cache.addListener(changes);
        rebuild();
    }

    private void rebuild() {
        cache.entrySet().forEach(entry -> index.put(parse(entry.getValue()), entry.getValue()));
        for (String key : index.keys()) {
            if (!cache.containsKey(key)) {
                index.remove(key);
            }
        }
    }

    private static ServiceEntry parse(String json) {
        return ServiceJson.readEntry(JSON.createReader(new StringReader(json)).readObject());
    }

    /** Keeps the index: each change once it is in this node's copy of the cache. */
    @Listener(observation = Listener.Observation.POST)
    public final class Changes {

        @CacheEntryCreated
        @CacheEntryModified
        public void written(CacheEntryEvent<String, String> event) {
            if (event.getValue() == null) {
                return;
            }
            ServiceEntry entry = parse(event.getValue());
            index.put(entry, event.getValue());
            if (event.isOriginLocal()) { // the node that made the change tells the subscribers
                subscriptions.changed(event.getType() == Event.Type.CACHE_ENTRY_CREATED ? "registered" : "modified", entry);
            }
        }

        @CacheEntryRemoved
        public void removed(CacheEntryEvent<String, String> event) {
            ServiceEntry old = index.remove(event.getKey());
            if (old != null && event.isOriginLocal()) {
                subscriptions.changed("deregistered", old);
            }
        }

        @CacheEntryExpired
        public void expired(CacheEntryEvent<String, String> event) {
            ServiceEntry old = index.remove(event.getKey());
            if (old != null && tellsOfExpiry(event.getKey())) {
                subscriptions.changed("expired", old);
            }
        }

        @TopologyChanged
        @DataRehashed
        public void membersChanged(Event<String, String> event) {
            rebuild();
        }
    }
}
