package org.siebog.agent;

import java.util.Map;

import org.siebog.message.ACLMessage;

/**
 * The contract between Siebog and an agent: the runtime starts an agent once, hands it one message
 * at a time, and stops it once. Agents are session beans; do not implement this interface directly,
 * implement {@link StatefulAgent} or {@link StatelessAgent} (which say what kind of bean it is) and
 * extend {@link AbstractAgent}, which turns these calls into {@code onStart}/{@code onMessage}/{@code onStop}.
 *
 * <p>The context comes with every call because a stateless agent's calls may reach any instance
 * of its pool.
 */
public interface Agent {

    void start(AgentContext context, Map<String, String> args);

    void handle(AgentContext context, ACLMessage message);

    void stop(AgentContext context);

    /** A stateful agent's state, taken between messages, so another node can carry on from it. */
    byte[] saveState();

    /**
     * Carries on from a state {@link #saveState()} took on another instance (after a failover):
     * called instead of {@code start} on a fresh instance.
     */
    void restoreState(AgentContext context, byte[] state);
}
