package org.siebog.delivery;

import java.time.Duration;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentContext;

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
