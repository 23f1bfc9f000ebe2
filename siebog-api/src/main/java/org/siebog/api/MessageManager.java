package org.siebog.api;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Posts ACL messages to agents, wherever they run, for code that is not an agent: a REST resource,
 * a timer, a bean of another deployment. (Agents send through their {@link AgentContext}, which
 * {@link AbstractAgent} wraps as {@code send}.)
 *
 * <p>Posting is admission, not handling: when {@code post} returns, every receiver's mailbox holds
 * the message and the agents will handle it, each in its mailbox's order; when it throws, no
 * receiver got it. Messages posted from one thread to one receiver are handled in the order they
 * were posted. A message without a sender is anonymous: answers go to its {@code replyTo}, if any.
 *
 * <p>Inject it with {@code @EJB(lookup = MessageManager.JNDI_NAME) MessageManager messages;}.
 * Thread-safe; the {@code Async} forms hold no thread while they wait.
 *
 * <pre>{@code
 * ACLMessage answer = messages.ask(ACLMessage.builder(Performative.QUERY_REF)
 *         .receiver(AID.parse("counter@siebog")).build(), Duration.ofSeconds(5));
 * }</pre>
 */
public interface MessageManager {

    /** Where the MessageManager is bound, for beans in other deployments to look it up. */
    String JNDI_NAME = "java:global/siebog/siebog-server/MessageManagerBean!org.siebog.api.MessageManager";

    /**
     * Delivers {@code message} to all its receivers, on whichever nodes they run.
     *
     * @param message the message; it needs at least one receiver
     * @throws MalformedMessageException the message has no receivers, or too many
     * @throws MessageTooLargeException  its content, or its other fields together, are over the platform's limits
     * @throws UnknownAgentException     a receiver does not exist
     * @throws MailboxFullException      a receiver's mailbox is full
     * @throws BacklogFullException      a receiver's node holds as many unsaved messages as it may
     * @throws RemoteNodeException       a receiver's node could not be reached or did not answer in time
     */
    void post(ACLMessage message);

    /**
     * {@link #post(ACLMessage)} without holding the caller's thread.
     *
     * @param message the message; it needs at least one receiver
     * @return completes once every receiver has admitted the message, or exceptionally with the
     *         refusal (a {@link SiebogException}, the same as {@code post} throws)
     */
    CompletionStage<Void> postAsync(ACLMessage message);

    /**
     * Delivers {@code message} after {@code delay}. The receivers and the size are checked now;
     * if at delivery time a receiver has gone or its mailbox is full, the sender (when it is an
     * agent) gets a {@link Performative#FAILURE} saying so.
     *
     * @param message the message; it needs at least one receiver
     * @param delay   how long to wait, at most a day ({@code siebog.message.max-delay-ms})
     * @throws SiebogException what {@link #post(ACLMessage)} throws now, a delay over the limit (400), or
     *                         the node's delayed messages at their limit (503)
     */
    void post(ACLMessage message, Duration delay);

    /**
     * Posts {@code message} with a temporary {@code replyTo} and returns the first message sent
     * there: how a caller outside the platform (a REST client, a test) asks an agent something.
     *
     * @param message the question; its own {@code replyTo} is replaced
     * @param timeout how long to wait for the answer
     * @return the first answer
     * @throws NoReplyException no answer within {@code timeout} (the question was delivered)
     * @throws SiebogException  what {@link #post(ACLMessage)} throws
     */
    ACLMessage ask(ACLMessage message, Duration timeout);

    /**
     * {@link #ask(ACLMessage, Duration)} without holding the caller's thread while it waits.
     *
     * @param message the question; its own {@code replyTo} is replaced
     * @param timeout how long to wait for the answer
     * @return completes with the first answer, or exceptionally with the refusal or a {@link NoReplyException}
     */
    CompletionStage<ACLMessage> askAsync(ACLMessage message, Duration timeout);
}
