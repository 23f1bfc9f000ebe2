package org.siebog.api;

import java.io.Serializable;
import java.util.Objects;

/**
 * One agent's subscription to a topic ({@link Topics}).
 *
 * @param topic the topic's name
 * @param agent the subscriber
 * @param group the group it shares the topic's messages with, or null: it gets every message
 */
public record TopicSubscription(String topic, AID agent, String group) implements Serializable {

    /**
     * Checks that the topic and agent are there.
     *
     * @param topic the topic's name
     * @param agent the subscriber
     * @param group its group, or null
     */
    public TopicSubscription {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(agent, "agent");
    }
}
