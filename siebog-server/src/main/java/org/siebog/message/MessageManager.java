package org.siebog.message;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Posts ACL messages to agents, wherever they run. Posting is admission, not handling: when
 * {@code post} returns, every receiver's mailbox holds the message and the agents will handle it
 * in order; when it throws, no receiver got it.
 */
public interface MessageManager {

    /** Where other deployments (and agents) look this manager up. */
    String JNDI_NAME = "java:global/siebog/siebog-server/MessageManagerBean!org.siebog.message.MessageManager";

    /**
     * Delivers {@code message} to all its receivers.
     *
     * @throws MalformedMessageException  the message has no receivers
     * @throws MessageTooLargeException   its content is over the platform's limit
     * @throws org.siebog.agentmanager.UnknownAgentException a receiver does not exist
     * @throws MailboxFullException       a receiver's mailbox is full
     */
    void post(ACLMessage message);

    /**
     * {@link #post(ACLMessage)} without holding the caller's thread: completes once every receiver
     * has admitted the message, or exceptionally with the refusal (the same exceptions).
     */
    CompletionStage<Void> postAsync(ACLMessage message);

    /**
     * Delivers {@code message} after {@code delay}. The receivers and the size are checked now;
     * if at delivery time a receiver has gone or its mailbox is full, the sender (when it is an
     * agent) gets a {@link Performative#FAILURE} saying so.
     */
    void post(ACLMessage message, Duration delay);

    /**
     * Posts {@code message} with a temporary {@code replyTo} and returns the first message sent
     * there: how a caller outside the platform (a REST client, a test) asks an agent something.
     *
     * @throws NoReplyException no answer within {@code timeout}
     */
    ACLMessage ask(ACLMessage message, Duration timeout);

    /** {@link #ask(ACLMessage, Duration)} without holding the caller's thread while it waits. */
    CompletionStage<ACLMessage> askAsync(ACLMessage message, Duration timeout);
}
