package org.siebog.topic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.siebog.api.AID;
import org.siebog.api.TopicSubscription;

/**
 * This node's copy of the topic subscriptions, arranged for publishing: per topic, an immutable
 * {@link Subscribers} that a publish reads without a lock, replaced whole by each change (changes
 * are rare next to publishes). Kept by {@link TopicSubscriptions} from its replicated cache.
 */
final class TopicIndex {

    /** Everyone in no group, and each group's members; every list sorted by AID, the same on every node. */
    record Subscribers(List<AID> everyone, Map<String, List<AID>> groups) {

        static final Subscribers NONE = new Subscribers(List.of(), Map.of());

        int size() {
            return everyone.size() + groups.values().stream().mapToInt(List::size).sum();
        }

        /**
         * Who gets one message: everyone, and of each group the member whose turn it is
         * ({@code turn}: the publisher's count of its messages to the topic, so each publisher
         * deals its messages to a group's members in turn, and a replay of one picks the same member).
         */
        List<AID> receivers(long turn) {
            if (groups.isEmpty()) {
                return everyone;
            }
            List<AID> receivers = new ArrayList<>(everyone.size() + groups.size());
            receivers.addAll(everyone);
            for (List<AID> members : groups.values()) {
                receivers.add(members.get((int) Math.floorMod(turn, (long) members.size())));
            }
            return receivers;
        }
    }

    private static final Comparator<AID> BY_AID = Comparator.comparing(AID::toString);

    private final Map<String, Map<AID, String>> byTopic = new ConcurrentHashMap<>();
    private final Map<String, Subscribers> published = new ConcurrentHashMap<>();
    private final Map<AID, Map<String, String>> byAgent = new ConcurrentHashMap<>();

    /** The cache's key for an agent's subscription to a topic. */
    static String key(String topic, AID agent) {
        return agent + "\u0000" + topic;
    }

    /** The topic and agent of {@link #key}. */
    static TopicSubscription subscription(String key, String group) {
        int split = key.indexOf('\u0000');
        return new TopicSubscription(key.substring(split + 1), AID.parse(key.substring(0, split)), group == null || group.isEmpty() ? null : group);
    }

    synchronized void put(TopicSubscription s) {
        byTopic.computeIfAbsent(s.topic(), t -> new TreeMap<>(BY_AID)).put(s.agent(), Objects.requireNonNullElse(s.group(), ""));
        byAgent.computeIfAbsent(s.agent(), a -> new TreeMap<>()).put(s.topic(), Objects.requireNonNullElse(s.group(), ""));
        republish(s.topic());
    }

    synchronized void remove(String topic, AID agent) {
        Map<AID, String> subscribers = byTopic.get(topic);
        if (subscribers != null && subscribers.remove(agent) != null && subscribers.isEmpty()) {
            byTopic.remove(topic);
        }
        Map<String, String> topics = byAgent.get(agent);
        if (topics != null && topics.remove(topic) != null && topics.isEmpty()) {
            byAgent.remove(agent);
        }
        republish(topic);
    }

    private void republish(String topic) {
        Map<AID, String> subscribers = byTopic.get(topic);
        if (subscribers == null) {
            published.remove(topic);
            return;
        }
        List<AID> everyone = new ArrayList<>();
        Map<String, List<AID>> groups = new TreeMap<>();
        subscribers.forEach((agent, group) -> {
            if (group.isEmpty()) {
                everyone.add(agent);
            } else {
                groups.computeIfAbsent(group, g -> new ArrayList<>()).add(agent);
            }
        });
        groups.replaceAll((group, members) -> List.copyOf(members));
        published.put(topic, new Subscribers(List.copyOf(everyone), Collections.unmodifiableMap(groups)));
    }

    /** The subscribers of {@code topic}, as a publish reads them. */
    Subscribers subscribers(String topic) {
        return published.getOrDefault(topic, Subscribers.NONE);
    }

    /** {@code topic}'s subscriptions, by agent. */
    synchronized List<TopicSubscription> subscriptions(String topic) {
        List<TopicSubscription> found = new ArrayList<>();
        byTopic.getOrDefault(topic, Map.of()).forEach((agent, group) -> found.add(new TopicSubscription(topic, agent, group.isEmpty() ? null : group)));
        return found;
    }

    /** {@code agent}'s subscriptions, by topic. */
    synchronized List<TopicSubscription> subscriptionsOf(AID agent) {
        List<TopicSubscription> found = new ArrayList<>();
        byAgent.getOrDefault(agent, Map.of()).forEach((topic, group) -> found.add(new TopicSubscription(topic, agent, group.isEmpty() ? null : group)));
        return found;
    }

    synchronized boolean has(String topic, AID agent) {
        return byTopic.getOrDefault(topic, Map.of()).containsKey(agent);
    }

    /** Every topic with subscribers and how many, by name. */
    synchronized Map<String, Integer> topics() {
        Map<String, Integer> counts = new TreeMap<>();
        byTopic.forEach((topic, subscribers) -> counts.put(topic, subscribers.size()));
        return counts;
    }

    synchronized int countOf(AID agent) {
        return byAgent.getOrDefault(agent, Map.of()).size();
    }

    synchronized int countOf(String topic) {
        return byTopic.getOrDefault(topic, Map.of()).size();
    }

    /** Every subscription's cache key. */
    synchronized List<String> keys() {
        List<String> keys = new ArrayList<>();
        byAgent.forEach((agent, topics) -> topics.keySet().forEach(topic -> keys.add(key(topic, agent))));
        return keys;
    }
}
