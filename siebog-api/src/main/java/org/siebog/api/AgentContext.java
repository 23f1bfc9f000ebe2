package org.siebog.api;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * What an agent can do besides handling its message: know who it is, and send. The platform passes
 * a context with every call to an {@link Agent}, so an agent needs no look-ups and keeps no
 * reference to the platform in its state; {@link AbstractAgent} keeps it for the call and offers
 * its methods as {@code aid()}, {@code send}, {@code sendLater} and {@code ask}.
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

    /**
     * Sends a question and returns its answer as a stage, without waiting for it: the handler
     * returns, the agent goes on with its next messages, and the stage completes later, on the
     * agent's own thread, between two of its messages. So a stage's actions (the non-async
     * {@code thenAccept}, {@code thenApply}, {@code whenComplete}, ...) may use and change the
     * agent's fields as a handler does, and a stateful agent's state is saved after them.
     *
     * <p>The answer is the first message to the agent whose {@code inReplyTo} is the question's
     * {@code replyWith}: the question gets a fresh {@code replyWith} unless it names one, and its
     * {@code replyTo} is set so that the answer comes back here. An answer is handed to the stage,
     * not to the agent's handler; later answers to the same question (from a second receiver, or
     * after the timeout) reach the handler as ordinary messages.
     *
     * <p>The stage fails with {@link NoReplyException} when no answer came within {@code timeout},
     * and with the refusal when a receiver's node refused the question. Never wait on it
     * ({@code toCompletableFuture().join()}): that holds the agent's thread, and with it the answer.
     * A pending question's stage is this node's. When a stateful agent carries on on another node
     * (a failover, a move), a question that was open when its state was saved reaches its handler as a
     * FAILURE {@code inReplyTo} the question (user property {@code siebog-question-lost}), and a late
     * answer as an ordinary message; one asked by a handler that is replayed there is asked again under
     * the same {@code replyWith} and gets the first answer. Questions still open when the agent stops
     * are dropped (their stages never complete).
     *
     * @param question the question; its sender is the agent unless it names one
     * @param timeout  how long to wait for the answer, at most {@code siebog.message.max-await-reply-ms} (5 minutes)
     * @return the answer, or the failure
     * @throws SiebogException what {@link #send(ACLMessage)} throws; a timeout out of range, or a
     *                         {@code replyWith} already awaiting its answer (400); the agent's
     *                         open questions at their limit, {@code siebog.agent.max-pending-asks} (503)
     */
    CompletionStage<ACLMessage> ask(ACLMessage question, Duration timeout);

    /**
     * Asks every receiver and gathers their answers, without waiting for them: the stage completes,
     * on the agent's own thread as {@link #ask}'s does, when each receiver has given a final answer
     * (any but {@link Performative#AGREE}, which promises a final one), or at {@code timeout} with the
     * answers that came by then. Answers come in the order they arrived, AGREEs included. The
     * interaction protocols ({@link FipaRequest}, {@link ContractNet}, {@link Ballot}) are built on it.
     *
     * <p>Each receiver gets the question on its own (its receivers name only it), all with one
     * {@code replyWith} (fresh unless the question names one) and this agent as {@code replyTo}. A
     * receiver that cannot be reached (it does not exist, its mailbox is full) counts as answering
     * {@link Performative#FAILURE}: the answers hold one with that receiver as sender, content
     * {@code "not delivered: <reason>"} and the user property {@code siebog-undelivered=true}. A topic
     * among the receivers keeps the gathering open until the timeout (who answers is not known).
     *
     * <p>An answer after the timeout reaches the handler as an ordinary message, with one exception:
     * a late {@link Performative#PROPOSE} to a question of protocol {@code fipa-contract-net} is
     * rejected at once (REJECT_PROPOSAL, "too late"), as FIPA's Contract Net says, and the handler
     * never sees it; this node remembers a timed-out question for
     * {@code siebog.message.max-await-reply-ms} for that.
     *
     * @param question the question; its sender is the agent unless it names one
     * @param timeout  how long to gather, at most {@code siebog.message.max-await-reply-ms} (5 minutes)
     * @return every answer that came in time, in arrival order
     * @throws SiebogException the question is malformed or too large, the timeout is out of range, its
     *                         {@code replyWith} already awaits answers (400/413), or the agent's open
     *                         questions are at their limit (503)
     */
    CompletionStage<List<ACLMessage>> askAll(ACLMessage question, Duration timeout);

    /**
     * Moves this agent to {@code node} once the current call returns, as JADE's {@code doMove} does:
     * it handles no further message here; on {@code node} it carries on from the state it has then
     * (a fresh instance, given that state as after a failover), and handles every message sent to it
     * in the order each sender sent them, none lost and none twice, wherever the sender was told
     * where it is. Its AID stays the same, and every node's directory names {@code node} once it is
     * there. Only a {@link StatefulAgent} moves (its state is what moves); its open questions
     * ({@link #ask}) do not: their late answers reach its handler there as ordinary messages.
     *
     * <p>The move happens after the call, so what the agent does in the call (sends, a reply) still
     * happens here. If {@code node} leaves the cluster or refuses the agent before it is there, the
     * agent carries on here, and the node's log says why.
     *
     * @param node the node to carry on on ({@link ConnectionManager#nodes()})
     * @throws InvalidAgentRequestException there is no such node, it is this agent's node, or the
     *                                      agent is not stateful (400)
     */
    void moveTo(String node);
}
