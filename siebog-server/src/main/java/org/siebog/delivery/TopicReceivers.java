package org.siebog.delivery;

import java.util.List;

import org.siebog.api.AID;

/**
 * Who gets a message sent to a topic ({@link org.siebog.api.Topics}); kept above this layer, by
 * the topic subscriptions, and asked by the router for each message that names a topic.
 */
public interface TopicReceivers {

    /**
     * The running agents that get one message to {@code topic}: every subscriber in no group, and
     * one member of each group.
     *
     * @param turn the publisher's count of its messages to the topic: picks the group members in turn
     */
    List<AID> of(String topic, long turn);
}
