package org.siebog.topic;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryModified;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryRemoved;
import org.infinispan.notifications.cachelistener.annotation.DataRehashed;
import org.infinispan.notifications.cachelistener.annotation.TopologyChanged;
import org.infinispan.notifications.cachelistener.event.CacheEntryEvent;
import org.infinispan.notifications.cachelistener.event.Event;

import org.siebog.api.AID;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.TopicSubscription;
import org.siebog.api.Topics;
import org.siebog.api.UnknownAgentException;
import org.siebog.delivery.TopicReceivers;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.StringCaches;
import org.siebog.platform.CopiesRetaken;
import org.siebog.platform.Setting;

/**
 * The topic subscriptions: a replicated Infinispan cache {@code topic-subscriptions} (defined in
 * {@code cluster-profile.cli}) keyed by agent and topic, holding the group ("" for none), so every
 * node knows every subscriber and a publisher's node sends each node its share itself. This
 * node's copy is {@link TopicIndex}, kept by the cache's listener; a publish reads only that.
 *
 * <p>Bounds, since client agents in browsers subscribe too: a topic or group name is a valid
 * AID name part ({@link Topics#topic}); an agent holds at most
 * {@code siebog.topic.max-subscriptions-per-agent} subscriptions, a topic at most
 * {@code siebog.topic.max-subscribers} subscribers. Beyond: 400, and nothing changes.
 */
@ApplicationScoped
public class TopicSubscriptions implements TopicReceivers {

    @Inject
    AgentDirectory agents;

    private AdvancedCache<String, String> cache;
    private final TopicIndex index = new TopicIndex();
    private final Changes changes = new Changes();

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/topic-subscriptions")
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

    /** Subscribes {@code agent} to {@code topic} in {@code group} (null: none); completes once every node has it. */
    public CompletableFuture<Void> subscribe(AID agent, String topic, String group) {
        checkName("topic", topic);
        if (group != null) {
            checkName("group", group);
        }
        if (agents.lookup(agent).isEmpty()) {
            throw new UnknownAgentException(agent);
        }
        if (!index.has(topic, agent)) {
            int maxOfAgent = Setting.TOPIC_MAX_SUBSCRIPTIONS_PER_AGENT.intValue();
            if (index.countOf(agent) >= maxOfAgent) {
                throw new InvalidAgentRequestException("agent " + agent + " already subscribes to " + maxOfAgent
                        + " topics, as many as one agent may (siebog.topic.max-subscriptions-per-agent)");
            }
            int maxOfTopic = Setting.TOPIC_MAX_SUBSCRIBERS.intValue();
            if (index.countOf(topic) >= maxOfTopic) {
                throw new InvalidAgentRequestException("topic '" + topic + "' already has " + maxOfTopic
                        + " subscribers, as many as one topic may (siebog.topic.max-subscribers)");
            }
        }
        return cache.withFlags(Flag.IGNORE_RETURN_VALUES).putAsync(TopicIndex.key(topic, agent), group == null ? "" : group)
                .thenApply(ignored -> null);
    }

    /** Ends {@code agent}'s subscription to {@code topic}; completes with false, at once, when it had none. */
    public CompletableFuture<Boolean> unsubscribe(AID agent, String topic) {
        if (topic == null || !index.has(topic, agent)) {
            return CompletableFuture.completedFuture(false);
        }
        return cache.withFlags(Flag.IGNORE_RETURN_VALUES).removeAsync(TopicIndex.key(topic, agent)).thenApply(ignored -> true);
    }

    /** Ends the subscriptions of an agent that stopped. */
    public void agentStopped(AID agent) {
        AdvancedCache<String, String> writer = cache.withFlags(Flag.IGNORE_RETURN_VALUES);
        index.subscriptionsOf(agent).forEach(s -> writer.remove(TopicIndex.key(s.topic(), agent)));
    }

    public List<TopicSubscription> subscribers(String topic) {
        return index.subscriptions(topic);
    }

    public List<TopicSubscription> subscriptionsOf(AID agent) {
        return index.subscriptionsOf(agent);
    }

    /** Every topic with subscribers, by name, and how many it has. */
    public Map<String, Integer> topics() {
        return index.topics();
    }

    /**
     * Skips a subscriber that is not running: one whose stop has not yet removed its
     * subscriptions everywhere must not make the whole publish fail.
     */
    @Override
    public List<AID> of(String topic, long turn) {
        List<AID> receivers = index.subscribers(topic).receivers(turn);
        for (AID receiver : receivers) {
            if (agents.lookup(receiver).isEmpty()) {
                List<AID> running = new ArrayList<>(receivers.size());
                receivers.stream().filter(r -> agents.lookup(r).isPresent()).forEach(running::add);
                return running;
            }
        }
        return receivers;
    }

    /** A topic's or group's name must make a valid AID name after {@link Topics#PREFIX}. */
    static void checkName(String what, String name) {
        try {
            Topics.topic(name, "p");
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidAgentRequestException("bad " + what + " name '" + shown(name) + "': it must have 1 to "
                    + (200 - Topics.PREFIX.length()) + " characters and no '@', '/', spaces or control characters");
        }
    }

    private static String shown(String name) {
        return name == null ? "" : name.length() > 40 ? name.substring(0, 40) + "..." : name;
    }

    /**
     * Reads the whole cache into the index and drops what the cache no longer has: at start, and
     * when members change (a state transfer is not reported entry by entry). Never emptied first:
     * publishes go on meanwhile.
     */
    /** This node took its copies of the caches again (it rejoined after a split): the listener went with the old copy. */
    void copiesRetaken(@Observes(notifyObserver = Reception.IF_EXISTS) CopiesRetaken retaken) {
        cache.addListener(changes);
        rebuild();
    }

    private void rebuild() {
        cache.entrySet().forEach(entry -> index.put(TopicIndex.subscription(entry.getKey(), entry.getValue())));
        for (String key : index.keys()) {
            if (!cache.containsKey(key)) {
                TopicSubscription gone = TopicIndex.subscription(key, null);
                index.remove(gone.topic(), gone.agent());
            }
        }
    }

    /** Keeps the index: each change once it is in this node's copy of the cache. */
    @Listener(observation = Listener.Observation.POST)
    public final class Changes {

        @CacheEntryCreated
        @CacheEntryModified
        public void written(CacheEntryEvent<String, String> event) {
            if (event.getValue() != null) {
                index.put(TopicIndex.subscription(event.getKey(), event.getValue()));
            }
        }

        @CacheEntryRemoved
        public void removed(CacheEntryEvent<String, String> event) {
            TopicSubscription s = TopicIndex.subscription(event.getKey(), null);
            index.remove(s.topic(), s.agent());
        }

        @TopologyChanged
        @DataRehashed
        public void membersChanged(Event<String, String> event) {
            rebuild();
        }
    }
}
