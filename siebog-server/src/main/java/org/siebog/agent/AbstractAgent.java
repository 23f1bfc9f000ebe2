package org.siebog.agent;

import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.ejb.Remove;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import org.siebog.message.ACLMessage;
import org.siebog.message.Performative;
import org.siebog.platform.SiebogException;

/**
 * Base class of server-side agents. Override {@link #onMessage(ACLMessage)} (and optionally
 * {@link #onStart(Map)} and {@link #onStop()}); send with {@link #send(ACLMessage.Builder)}.
 *
 * <p>Siebog calls an agent for one message at a time, in the order the messages were admitted to
 * its mailbox, on a shared pool of threads: never block for long inside a handler, and never start
 * threads of your own.
 *
 * <p>An exception (or an {@code Error} such as an assertion or a stack overflow) thrown by a handler
 * is logged with the agent and message and the agent carries on: it must not reach the EJB
 * container, which would discard a stateful agent's instance. Only out-of-memory and JVM
 * failures pass through.
 */
@TransactionAttribute(TransactionAttributeType.SUPPORTS) // no transaction per message unless the agent asks
public abstract class AbstractAgent implements Serializable {

    private static final Logger LOG = Logger.getLogger(AbstractAgent.class.getName());

    /** The context of the call in progress; not part of the agent's state. */
    private transient AgentContext context;

    public void start(AgentContext context, Map<String, String> args) {
        this.context = context;
        onStart(args);
    }

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

    @Remove // a stateful agent's bean instance goes with it; for a stateless one the container ignores this
    public void stop(AgentContext context) {
        this.context = context;
        onStop();
    }

    public byte[] saveState() {
        return AgentState.capture(this);
    }

    public void restoreState(AgentContext context, byte[] state) {
        this.context = context;
        AgentState.restore(this, state);
    }

    /** Called once before the first message; {@code args} are the agent's start arguments. */
    protected void onStart(Map<String, String> args) {
    }

    protected abstract void onMessage(ACLMessage message);

    /** Called once after the last message. */
    protected void onStop() {
    }

    /** This agent's identifier. */
    protected final AID aid() {
        return context.self();
    }

    /** Sends a message now; this agent is the sender unless the message names one. */
    protected final void send(ACLMessage message) {
        context.send(withSender(message));
    }

    protected final void send(ACLMessage.Builder message) {
        send(message.build());
    }

    /** Sends a message after {@code delay}. */
    protected final void sendLater(ACLMessage message, Duration delay) {
        context.send(withSender(message), delay);
    }

    /** Starts the answer to {@code message}, from this agent (see {@link ACLMessage#reply(Performative)}). */
    protected final ACLMessage.Builder reply(ACLMessage message, Performative performative) {
        return message.reply(performative).sender(aid());
    }

    private ACLMessage withSender(ACLMessage message) {
        return message.sender() != null ? message : message.withSender(aid());
    }
}
