package org.siebog.perf.senderreceiver.jade;

import java.util.function.Consumer;

import jade.core.Agent;
import jade.core.behaviours.CyclicBehaviour;
import jade.lang.acl.ACLMessage;

/**
 * Handles an agent's messages one per {@code action()}, blocking while none is waiting. A failure
 * ends the whole run at once: JADE would only log it and kill the agent, leaving the run to hang.
 */
final class MessageBehaviour extends CyclicBehaviour {

    private final RunOutcome outcome;
    private final Consumer<ACLMessage> handler;

    MessageBehaviour(Agent agent, RunOutcome outcome, Consumer<ACLMessage> handler) {
        super(agent);
        this.outcome = outcome;
        this.handler = handler;
    }

    @Override
    public void action() {
        ACLMessage message = myAgent.receive();
        if (message == null) {
            block();
            return;
        }
        try {
            handler.accept(message);
        } catch (RuntimeException | OutOfMemoryError e) {
            outcome.failed(e);
        }
    }
}
