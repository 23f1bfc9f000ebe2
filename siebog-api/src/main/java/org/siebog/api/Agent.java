package org.siebog.api;

import java.util.Map;

/**
 * The contract between the platform and an agent: the platform starts an agent once, hands it one
 * message at a time, and stops it once; for a stateful agent it also takes and restores its state.
 * Do not implement it directly: extend {@link AbstractAgent}, which turns these calls into
 * {@code onStart}/{@code onMessage}/{@code onStop} and captures state from the agent's fields, and
 * implement {@link StatefulAgent} or {@link StatelessAgent}, which tell the platform the agent's
 * kind.
 *
 * <p>Only the platform calls these methods. It never calls one agent from two threads at once, and
 * it passes the {@link AgentContext} with every call because a stateless agent's calls may reach
 * any instance of its pool.
 */
public interface Agent {

    /**
     * Starts the agent, once, before its first message.
     *
     * @param context what the agent can do during the call
     * @param args    the start arguments the agent was started with (never null)
     */
    void start(AgentContext context, Map<String, String> args);

    /**
     * Hands the agent one message.
     *
     * @param context what the agent can do during the call
     * @param message the message, as admitted to the agent's mailbox
     */
    void handle(AgentContext context, ACLMessage message);

    /**
     * Stops the agent, once, after the last message it handles.
     *
     * @param context what the agent can do during the call
     */
    void stop(AgentContext context);

    /**
     * A stateful agent's state, taken between messages, so that another node can carry on from it.
     *
     * @return the state as bytes, for {@link #restoreState} on another instance of the same class
     */
    byte[] saveState();

    /**
     * Carries on from a state {@link #saveState()} took on another instance (after a failover):
     * called instead of {@code start} on a fresh instance.
     *
     * @param context what the agent can do during the call
     * @param state   what {@link #saveState()} returned
     */
    void restoreState(AgentContext context, byte[] state);

    /**
     * The agent has moved to another node, where it carries on from the state it saved last: this
     * instance is discarded, without {@link #stop}. Called once, after the last message this
     * instance handles. Does nothing by default.
     *
     * @param context what the agent can do during the call
     */
    default void moved(AgentContext context) {
    }
}
