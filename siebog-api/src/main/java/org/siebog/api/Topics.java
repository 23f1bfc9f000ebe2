package org.siebog.api;

import java.util.List;

/**
 * Publish and subscribe: an agent subscribes to a topic, and every message sent to the topic's
 * AID ({@link #topic(String, String)}, {@code topic:<name>@<platform>}) reaches every subscriber,
 * wherever it runs. There is no broker: the subscriptions are replicated to every node, and the
 * publisher's node sends the message once to each node that hosts subscribers, which hands it to
 * them there.
 *
 * <p>Publishing is sending: {@code send(ACLMessage.builder(INFORM).receiver(topic("news")).content(...))}
 * from an agent ({@code AbstractAgent.topic(String)} gives the AID), a message to
 * {@code topic:news@siebog} from a client agent in a browser, or {@code POST /api/messages} from
 * outside. Subscribers get the message as it was sent, its receivers naming the topic. A message
 * reaches each subscriber as a direct message would: a stateful subscriber at least once and
 * handles it once (its node logs it before the publisher hears it was admitted, and a failover
 * neither loses nor repeats it); one publisher's messages to a topic arrive in the order it sent
 * them. A refusal by a subscriber (a full mailbox) reaches the publisher as a direct message's
 * would, the other subscribers keep their copies. A topic with no subscribers takes messages and
 * hands them to no one.
 *
 * <p>A subscription in a <em>group</em> shares the topic's messages with the group's other members:
 * each message reaches one member of each group (chosen in turn for each publisher; a stateful
 * publisher's message replayed after a failover goes to the same member), and every subscriber that
 * is in no group.
 *
 * <p>For Java code: {@code @EJB(lookup = Topics.JNDI_NAME) transient Topics topics;} (in an agent,
 * keep the field {@code transient}). Agents anywhere, client agents in browsers among them, also
 * subscribe by message to the FIPA agent {@code topics@<platform>} (see {@code docs/agents.md}).
 * A subscription holds until the agent unsubscribes or stops; a client agent's survives its moves
 * to other devices.
 */
public interface Topics {

    /** Where Topics is bound, for beans in other deployments to look it up. */
    String JNDI_NAME = "java:global/siebog/siebog-server/TopicsBean!org.siebog.api.Topics";

    /** What a topic's AID's name starts with; no agent may have such a name. */
    String PREFIX = "topic:";

    /**
     * The AID to send to for publishing on {@code name}.
     *
     * @param name     the topic: 1 to 194 characters, no {@code '@'}, {@code '/'}, spaces or control characters
     * @param platform the platform's name (an agent's own: {@code aid().platform()})
     * @return {@code topic:<name>@<platform>}
     * @throws IllegalArgumentException the name is empty, too long, or holds a character it may not
     */
    static AID topic(String name, String platform) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a topic's name must not be empty");
        }
        return new AID(PREFIX + name, platform);
    }

    /**
     * Whether {@code aid} names a topic.
     *
     * @param aid an AID
     * @return true for {@code topic:<name>@...}
     */
    static boolean isTopic(AID aid) {
        return aid.name().startsWith(PREFIX);
    }

    /**
     * Subscribes {@code agent} to {@code topic}, or moves its subscription to {@code group}.
     *
     * @param agent a running agent
     * @param topic the topic's name (as in {@link #topic(String, String)})
     * @param group the group whose members share the topic's messages, or null to get every message
     * @throws UnknownAgentException        the agent is not running
     * @throws InvalidAgentRequestException a bad topic or group name, the agent's subscriptions at
     *                                      their limit ({@code siebog.topic.max-subscriptions-per-agent}), or
     *                                      the topic's subscribers at theirs ({@code siebog.topic.max-subscribers})
     */
    void subscribe(AID agent, String topic, String group);

    /**
     * Ends {@code agent}'s subscription to {@code topic}.
     *
     * @param agent the subscriber
     * @param topic the topic's name
     * @return false when it had none
     */
    boolean unsubscribe(AID agent, String topic);

    /**
     * The subscriptions to {@code topic}, by agent.
     *
     * @param topic the topic's name
     * @return its subscribers, empty when it has none
     */
    List<TopicSubscription> subscribers(String topic);

    /**
     * The topics {@code agent} subscribes to.
     *
     * @param agent an agent
     * @return its subscriptions, by topic
     */
    List<TopicSubscription> subscriptionsOf(AID agent);
}
