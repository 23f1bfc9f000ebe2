package org.siebog.agent;

import java.time.Duration;

import org.siebog.message.ACLMessage;

/**
 * What an agent can do besides handling messages: know who it is, and send. Siebog passes it with
 * every call, so an agent needs no lookups and keeps no reference to the platform in its state.
 */
public interface AgentContext {

    AID self();

    /** Posts now; see {@link org.siebog.message.MessageManager#post(ACLMessage)} for what can be refused. */
    void send(ACLMessage message);

    /** Posts after {@code delay}. */
    void send(ACLMessage message, Duration delay);
}
