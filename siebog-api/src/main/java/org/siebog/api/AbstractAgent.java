package org.siebog.api;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.ejb.Remove;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * The base class of server-side agents. Subclass it as a session bean of one of the two kinds,
 * override {@link #onMessage(ACLMessage)} (and {@link #onStart(Map)} and {@link #onStop()} when you
 * need them), and talk to other agents with {@link #send(ACLMessage.Builder)},
 * {@link #reply(ACLMessage, Performative)} and {@link #sendLater(ACLMessage, Duration)}:
 *
 * <pre>{@code
 * @Stateful
 * public class Ping extends AbstractAgent implements StatefulAgent {
 *     private AID pong;
 *     private int pings;
 *
 *     @Override
 *     protected void onStart(Map<String, String> args) {
 *         pong = AID.parse(args.get("pong"));
 *     }
 *
 *     @Override
 *     protected void onMessage(ACLMessage msg) {
 *         switch (msg.performative()) {
 *             case REQUEST -> send(ACLMessage.builder(Performative.REQUEST).receiver(pong).content("ping"));
 *             case INFORM -> pings++;
 *             case QUERY_REF -> send(reply(msg, Performative.INFORM).content(Integer.toString(pings)));
 *             default -> send(reply(msg, Performative.NOT_UNDERSTOOD));
 *         }
 *     }
 * }
 * }</pre>
 *
 * <h2>Threads and ordering</h2>
 *
 * The platform calls an agent for one message at a time, in the order its mailbox admitted them,
 * on a small pool of threads shared by all agents of the node (one per core). So an agent needs no
 * locks for its own fields, but a handler must not block for long (no waiting on I/O, on other
 * agents' answers or on locks) and must never start threads: ask, return, and handle the answer
 * when it arrives as a message. The methods of this class may be called only from within a
 * handler, on its thread.
 *
 * <h2>Failures</h2>
 *
 * An exception (or an {@code Error} such as an assertion or a stack overflow) thrown by a handler
 * is logged with the agent and the message, and the agent goes on with its next message: the
 * failure must not reach the EJB container, which would discard a stateful agent's instance. Only
 * out-of-memory and JVM failures pass through. An exception thrown by {@link #onStart(Map)} makes
 * the start fail (the caller gets a 400 with the reason).
 *
 * <h2>State</h2>
 *
 * A {@link StatefulAgent}'s state is the fields its classes declare below this one, except static,
 * {@code transient} and injected ({@code @Inject}, {@code @EJB}, {@code @Resource}, ...) fields; it
 * is saved between messages and restored on another node after a failover. A
 * {@link StatelessAgent} keeps nothing between messages.
 */
@TransactionAttribute(TransactionAttributeType.SUPPORTS) // no transaction per message unless the agent asks
public abstract class AbstractAgent implements Serializable {

    private static final Logger LOG = Logger.getLogger(AbstractAgent.class.getName());

    /** The context of the call in progress; not part of the agent's state. */
    private transient AgentContext context;

    /**
     * Called by the platform: keeps the context for the call and runs {@link #onStart(Map)}.
     *
     * @param context what the agent can do during the call
     * @param args    its start arguments
     */
    public void start(AgentContext context, Map<String, String> args) {
        this.context = context;
        onStart(args);
    }

    /**
     * Called by the platform: runs {@link #onMessage(ACLMessage)}, and logs what it throws.
     *
     * @param context what the agent can do during the call
     * @param message the message to handle
     */
    public void handle(AgentContext context, ACLMessage message) {
        this.context = context;
        try {
            onMessage(message);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
                throw e; // out of memory or a broken JVM: nothing an agent can go on from
            }
            Supplier<String> what = () -> "agent " + context.self() + " failed to handle " + message.performative()
                    + " from " + message.sender() + "; it goes on with its next message";
            if (e instanceof SiebogException refusal) { // the platform refused a send: the reason says it all
                LOG.warning(() -> what.get() + ": " + refusal);
            } else {
                LOG.log(Level.WARNING, e, what);
            }
        }
    }

    /**
     * Called by the platform: runs {@link #onStop()}; the bean instance of a stateful agent goes with it.
     *
     * @param context what the agent can do during the call
     */
    @Remove // a stateful agent's bean instance goes with it; for a stateless one the container ignores this
    public void stop(AgentContext context) {
        this.context = context;
        onStop();
    }

    /**
     * Called by the platform on the instance a stateful agent leaves behind when it moves to another
     * node: the bean instance goes, without {@link #onStop()} (the agent has not stopped; it carries on
     * there from its saved state).
     *
     * @param context what the agent can do during the call
     */
    @Remove
    public void moved(AgentContext context) {
        this.context = context;
    }

    /**
     * Called by the platform: the agent's fields (see <em>State</em> above) as bytes.
     *
     * @return the serialised fields
     * @throws IllegalStateException a field's value is not {@link java.io.Serializable}
     */
    public byte[] saveState() {
        return AgentState.capture(this);
    }

    /**
     * Called by the platform on a fresh instance: sets the fields to the state another instance saved.
     *
     * @param context what the agent can do during the call
     * @param state   what {@link #saveState()} returned
     */
    public void restoreState(AgentContext context, byte[] state) {
        this.context = context;
        AgentState.restore(this, state);
    }

    /**
     * Called once, before the first message. Does nothing unless overridden.
     *
     * @param args the agent's start arguments (never null)
     */
    protected void onStart(Map<String, String> args) {
    }

    /**
     * Handles one message; what the agent does.
     *
     * @param message the next message in the agent's mailbox
     */
    protected abstract void onMessage(ACLMessage message);

    /** Called once, after the last message, when the agent is stopped. Does nothing unless overridden. */
    protected void onStop() {
    }

    /**
     * This agent's identifier.
     *
     * @return its AID, the same on any node
     */
    protected final AID aid() {
        return context.self();
    }

    /**
     * The AID of a topic on this agent's platform: a message sent to it is published to the
     * topic's subscribers (see {@link Topics}).
     *
     * <pre>{@code
     * send(ACLMessage.builder(Performative.INFORM).receiver(topic("prices")).content("book=12.50"));
     * }</pre>
     *
     * @param name the topic's name
     * @return {@code topic:<name>@<platform>}
     * @throws IllegalArgumentException not a valid topic name
     */
    protected final AID topic(String name) {
        return Topics.topic(name, context.self().platform());
    }

    /**
     * Sends a message now; this agent is the sender unless the message names one.
     *
     * @param message the message
     * @throws SiebogException this node refused it (see {@link AgentContext#send(ACLMessage)}); no receiver has it
     */
    protected final void send(ACLMessage message) {
        context.send(withSender(message));
    }

    /**
     * Builds a message and sends it now.
     *
     * @param message the message's builder
     * @throws SiebogException this node refused it; no receiver has it
     */
    protected final void send(ACLMessage.Builder message) {
        send(message.build());
    }

    /**
     * Sends a message after {@code delay}; if by then a receiver is gone or full, this agent gets a
     * {@link Performative#FAILURE} saying so.
     *
     * @param message the message
     * @param delay   how long to wait, at most a day
     * @throws SiebogException this node refused it now (see {@link AgentContext#send(ACLMessage, Duration)})
     */
    protected final void sendLater(ACLMessage message, Duration delay) {
        context.send(withSender(message), delay);
    }

    /**
     * Asks and returns the answer as a stage, without waiting: see {@link AgentContext#ask(ACLMessage, Duration)}.
     * The stage completes on this agent's thread, between its messages, so its actions may use
     * the agent's fields:
     *
     * <pre>{@code
     * ask(ACLMessage.builder(Performative.QUERY_REF).receiver(seller).content(title), Duration.ofSeconds(5))
     *         .thenAccept(answer -> prices.put(seller, answer.content()))
     *         .exceptionally(failure -> { missing.add(seller); return null; });
     * }</pre>
     *
     * <p>What a stage's action throws completes that stage with the failure, as in any
     * {@code CompletionStage}: end a chain with {@code exceptionally} or {@code whenComplete}.
     *
     * @param question the question; this agent is the sender unless it names one
     * @param timeout  how long to wait for the answer
     * @return the answer, or {@link NoReplyException} after {@code timeout}, or the question's refusal elsewhere
     * @throws SiebogException this node refused the question (see {@link AgentContext#ask(ACLMessage, Duration)})
     */
    protected final CompletionStage<ACLMessage> ask(ACLMessage question, Duration timeout) {
        AgentContext asking = context;
        // The stage's actions run outside a call, so they find the context of this agent's last call:
        // put back the asker's (a stateless class may serve several agents between the question and its answer).
        return asking.ask(withSender(question), timeout).thenApply(answer -> {
            context = asking;
            return answer;
        });
    }

    /**
     * Builds a question and asks it: see {@link #ask(ACLMessage, Duration)}.
     *
     * @param question the question's builder
     * @param timeout  how long to wait for the answer
     * @return the answer, or the failure
     * @throws SiebogException this node refused the question
     */
    protected final CompletionStage<ACLMessage> ask(ACLMessage.Builder question, Duration timeout) {
        return ask(question.build(), timeout);
    }

    /**
     * Asks every receiver and gathers their answers, without waiting: see
     * {@link AgentContext#askAll(ACLMessage, Duration)}. The stage completes on this agent's thread,
     * between its messages, when every receiver gave a final answer or at the timeout:
     *
     * <pre>{@code
     * askAll(ACLMessage.builder(Performative.QUERY_REF).receivers(sellers).content(title), Duration.ofSeconds(5))
     *         .thenAccept(answers -> answers.forEach(a -> prices.put(a.sender(), a.content())));
     * }</pre>
     *
     * @param question the question; this agent is the sender unless it names one
     * @param timeout  how long to gather
     * @return the answers that came in time, in arrival order
     * @throws SiebogException this node refused the question (see {@link AgentContext#askAll(ACLMessage, Duration)})
     */
    protected final CompletionStage<List<ACLMessage>> askAll(ACLMessage question, Duration timeout) {
        AgentContext asking = context;
        return asking.askAll(withSender(question), timeout).thenApply(answers -> {
            context = asking;
            return answers;
        });
    }

    /**
     * Moves this stateful agent to {@code node} once the current call returns: its next message is
     * handled there, after every message it was sent before (see {@link AgentContext#moveTo(String)}).
     *
     * <pre>{@code
     * case REQUEST -> moveTo(message.content()); // "node2"
     * }</pre>
     *
     * @param node the node to carry on on ({@link ConnectionManager#nodes()})
     * @throws InvalidAgentRequestException there is no such node, it is the node the agent is on, or
     *                                      the agent is not stateful
     */
    protected final void moveTo(String node) {
        context.moveTo(node);
    }

    /**
     * Starts the answer to {@code message}, from this agent: to its {@code replyTo} (or sender), in
     * its conversation (see {@link ACLMessage#reply(Performative)}).
     *
     * @param message      the message to answer
     * @param performative what the answer does
     * @return a builder for the answer; pass it to {@link #send(ACLMessage.Builder)}
     */
    protected final ACLMessage.Builder reply(ACLMessage message, Performative performative) {
        return message.reply(performative).sender(aid());
    }

    private ACLMessage withSender(ACLMessage message) {
        return message.sender() != null ? message : message.withSender(aid());
    }
}
