package org.siebog.delivery;

import java.time.Duration;

import org.siebog.agent.AID;
import org.siebog.agent.AgentContext;
import org.siebog.message.ACLMessage;

/** The context of an agent hosted on this node: its sends go straight to the router, not through an EJB proxy. */
record HostedAgentContext(AID self, MessageRouter router) implements AgentContext {

    @Override
    public void send(ACLMessage message) {
        router.send(self, message);
    }

    @Override
    public void send(ACLMessage message, Duration delay) {
        router.post(message, delay);
    }
}
