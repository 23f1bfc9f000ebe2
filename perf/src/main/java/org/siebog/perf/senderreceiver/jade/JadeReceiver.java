package org.siebog.perf.senderreceiver.jade;

import jade.core.Agent;
import jade.lang.acl.ACLMessage;

import org.siebog.examples.senderreceiver.Primes;

/**
 * Siebog's {@code Receiver} on JADE: answers each REQUEST with an INFORM carrying the same content,
 * after counting the primes up to the request's {@code primeLimit} parameter (absent = none).
 * Argument: the {@link RunOutcome}.
 */
public class JadeReceiver extends Agent {

    static final String PRIME_LIMIT = "primeLimit";

    @Override
    protected void setup() {
        addBehaviour(new MessageBehaviour(this, (RunOutcome) getArguments()[0], this::onMessage));
    }

    private void onMessage(ACLMessage request) {
        if (request.getPerformative() != ACLMessage.REQUEST) {
            return;
        }
        ACLMessage reply = request.createReply();
        reply.setPerformative(ACLMessage.INFORM);
        reply.setContent(request.getContent());
        String limit = request.getUserDefinedParameter(PRIME_LIMIT);
        if (limit != null) {
            reply.addUserDefinedParameter("primes", Integer.toString(Primes.countUpTo(Integer.parseInt(limit))));
        }
        send(reply);
    }
}
