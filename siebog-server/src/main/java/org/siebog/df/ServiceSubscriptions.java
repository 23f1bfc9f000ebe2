package org.siebog.df;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
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

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.Performative;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;
import org.siebog.api.SiebogException;
import org.siebog.api.UnknownAgentException;
import org.siebog.delivery.MessageRouter;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.StringCaches;
import org.siebog.platform.CopiesRetaken;
import org.siebog.platform.PlatformConfig;

/**
 * Subscriptions to the directory's changes ({@link org.siebog.api.DirectoryFacilitator#subscribe}):
 * a replicated cache {@code service-subscriptions} (every node knows every subscription, so the
 * node that makes a change tells the subscribers itself), with this node's parsed copy kept by the
 * cache's listener, as {@link ServiceIndex} is for the services.
 */
@ApplicationScoped
public class ServiceSubscriptions {

    private static final Logger LOG = Logger.getLogger(ServiceSubscriptions.class.getName());
    private static final JsonProvider JSON = JsonProvider.provider();
    static final String PROTOCOL = "fipa-subscribe";

    private record Subscription(AID subscriber, String id, ServiceTemplate template, Instant expires) {
    }

    @Inject
    AgentDirectory agents;

    @Inject
    MessageRouter router;

    private AdvancedCache<String, String> cache;
    private final Map<String, Subscription> byKey = new ConcurrentHashMap<>();
    private final Changes changes = new Changes();
    private final Clock clock = Clock.systemUTC();

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/service-subscriptions")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
        cache.addListener(changes);
        rebuild();
    }

    @PreDestroy
    void stopListening() {
        cache.removeListener(changes);
    }

    /** Subscribes; completes with the subscription's id once every node has it. */
    public CompletableFuture<String> subscribe(AID subscriber, ServiceTemplate template, Duration lease) {
        ServiceLimits.check(template);
        ServiceLimits.checkLease(lease);
        if (agents.lookup(subscriber).isEmpty()) {
            throw new UnknownAgentException(subscriber);
        }
        Instant now = clock.instant();
        int max = ServiceLimits.maxServicesPerAgent();
        if (ofAgent(subscriber, now).size() >= max) {
            throw new InvalidAgentRequestException("agent " + subscriber + " already has " + max
                    + " subscriptions to the directory, as many as one agent may (siebog.df.max-services-per-agent)");
        }
        String id = "df-subscription-" + UUID.randomUUID();
        Subscription subscription = new Subscription(subscriber, id, template, lease == null ? null : now.plus(lease));
        return ServiceDirectory.putLeased(cache, ServiceIndex.key(subscriber, id), toJson(subscription).toString(), lease).thenApply(ignored -> id);
    }

    public boolean unsubscribe(AID subscriber, String id) {
        String key = ServiceIndex.key(subscriber, id);
        Subscription subscription = byKey.get(key);
        if (subscription == null || !live(subscription, clock.instant())) {
            return false;
        }
        cache.withFlags(Flag.IGNORE_RETURN_VALUES).remove(key);
        return true;
    }

    /** Ends the subscriptions of an agent that stopped. */
    public void agentStopped(AID agent) {
        AdvancedCache<String, String> writer = cache.withFlags(Flag.IGNORE_RETURN_VALUES);
        ofAgent(agent, null).forEach(subscription -> writer.remove(ServiceIndex.key(agent, subscription.id())));
    }

    /** Tells the subscribers whose templates match of a change to {@code entry} (called by one node per change). */
    void changed(String change, ServiceEntry entry) {
        Instant now = clock.instant();
        AID df = new AID(DirectoryAgent.NAME, PlatformConfig.SYSTEM.platformName());
        for (Subscription subscription : byKey.values()) {
            if (!live(subscription, now) || !subscription.template().matches(entry.service())) {
                continue;
            }
            ACLMessage notification = ACLMessage.builder(Performative.INFORM)
                    .sender(df)
                    .receiver(subscription.subscriber())
                    .conversationId(subscription.id())
                    .protocol(PROTOCOL)
                    .language("json")
                    .ontology(DirectoryAgent.ONTOLOGY)
                    .content(JSON.createObjectBuilder().add("change", change).add("entry", ServiceJson.entry(entry)).build().toString())
                    .build();
            try {
                router.post(notification).whenComplete((ok, refused) -> {
                    if (refused != null) {
                        LOG.log(Level.FINE, "df: a notification to {0} was refused: {1}", new Object[] {subscription.subscriber(), refused});
                    }
                });
            } catch (SiebogException refused) {
                LOG.log(Level.FINE, "df: a notification to {0} was refused: {1}", new Object[] {subscription.subscriber(), refused.getMessage()});
            }
        }
    }

    private List<Subscription> ofAgent(AID agent, Instant liveAt) {
        return byKey.values().stream().filter(s -> s.subscriber().equals(agent) && (liveAt == null || live(s, liveAt))).toList();
    }

    private static boolean live(Subscription subscription, Instant now) {
        return subscription.expires() == null || subscription.expires().isAfter(now);
    }

    /** This node took its copies of the caches again (it rejoined after a split): the listener went with the old copy. */
    void copiesRetaken(@Observes(notifyObserver = Reception.IF_EXISTS) CopiesRetaken retaken) {
        cache.addListener(changes);
        rebuild();
    }

    private void rebuild() {
        cache.entrySet().forEach(entry -> byKey.put(entry.getKey(), fromJson(entry.getValue())));
        byKey.keySet().removeIf(key -> !cache.containsKey(key));
    }

    private static JsonObject toJson(Subscription subscription) {
        var json = JSON.createObjectBuilder()
                .add("subscriber", subscription.subscriber().toString())
                .add("id", subscription.id())
                .add("template", ServiceJson.template(subscription.template()));
        if (subscription.expires() != null) {
            json.add("expires", subscription.expires().toString());
        }
        return json.build();
    }

    private static Subscription fromJson(String text) {
        JsonObject json = JSON.createReader(new StringReader(text)).readObject();
        String expires = json.getString("expires", null);
        return new Subscription(AID.parse(json.getString("subscriber")), json.getString("id"),
                ServiceJson.readTemplate(json.getJsonObject("template")), expires == null ? null : Instant.parse(expires));
    }

    /** Keeps this node's copy of the subscriptions. */
    @Listener(observation = Listener.Observation.POST)
    public final class Changes {

        @CacheEntryCreated
        @CacheEntryModified
        public void written(CacheEntryEvent<String, String> event) {
            if (event.getValue() != null) {
                byKey.put(event.getKey(), fromJson(event.getValue()));
            }
        }

        @CacheEntryRemoved
        @CacheEntryExpired
        public void removed(CacheEntryEvent<String, String> event) {
            byKey.remove(event.getKey());
        }

        @TopologyChanged
        @DataRehashed
        public void membersChanged(Event<String, String> event) {
            rebuild();
        }
    }
}
