package org.siebog.delivery;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentContext;

/** The context of an agent hosted on this node: its sends go straight to the router, not through an EJB proxy. */
record HostedAgentContext(AID self, MessageRouter router, AgentAsks asks, AgentMoves moves) implements AgentContext {

    @Override
    public void send(ACLMessage message) {
        router.send(self, message);
    }

    @Override
    public void send(ACLMessage message, Duration delay) {
        router.sendLater(self, message, delay);
    }

    @Override
    public CompletionStage<ACLMessage> ask(ACLMessage question, Duration timeout) {
        return asks.ask(self, question, timeout);
    }

    @Override
    public CompletionStage<List<ACLMessage>> askAll(ACLMessage question, Duration timeout) {
        return asks.askAll(self, question, timeout);
    }

    @Override
    public void moveTo(String node) {
        moves.moveSoon(self, node);
    }
}
