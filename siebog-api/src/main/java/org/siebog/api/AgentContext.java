package org.siebog.api;

import java.time.Duration;

/**
 * What an agent can do besides handling its message: know who it is, and send. The platform passes
 * a context with every call to an {@link Agent}, so an agent needs no look-ups and keeps no
 * reference to the platform in its state; {@link AbstractAgent} keeps it for the call and offers
 * its methods as {@code aid()}, {@code send} and {@code sendLater}.
 *
 * <p>Use it only on the thread of the call it came with. Messages one agent sends to one receiver
 * arrive in the order they were sent.
 */
public interface AgentContext {

    /**
     * The agent this context belongs to.
     *
     * @return its AID
     */
    AID self();

    /**
     * Posts a message now, without waiting for other nodes: what this node refuses is thrown, and
     * then no receiver has the message; a refusal by a receiver's node elsewhere comes back to the
     * agent as a {@link Performative#FAILURE} message. Nothing is dropped silently.
     *
     * @param message the message; its sender is the agent unless it names one
     * @throws MalformedMessageException no receivers, or too many
     * @throws MessageTooLargeException  the content or the other fields together are over the platform's limits
     * @throws UnknownAgentException     a receiver does not exist
     * @throws MailboxFullException      a receiver's mailbox is full
     * @throws BacklogFullException      a receiver's node holds as many unsaved messages as it may
     */
    void send(ACLMessage message);

    /**
     * Posts a message after {@code delay}. Receivers and size are checked now; if by then a
     * receiver is gone or full, the agent gets a {@link Performative#FAILURE} saying so.
     *
     * @param message the message; its sender is the agent unless it names one
     * @param delay   how long to wait, at most a day ({@code siebog.message.max-delay-ms})
     * @throws SiebogException what {@link #send(ACLMessage)} throws, or a delay over the limit (400),
     *                         or the node's delayed messages at their limit (503)
     */
    void send(ACLMessage message, Duration delay);
}
