package org.siebog.examples.senderreceiver;

import jakarta.ejb.Stateless;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatelessAgent;

/**
 * Answers each REQUEST with an INFORM carrying the same content, after counting the primes up to
 * the request's {@code primeLimit} user property (paper 003's computational task; absent or 0 = none).
 */
@Stateless
public class Receiver extends AbstractAgent implements StatelessAgent {

    public static final String PRIME_LIMIT = "primeLimit";

    @Override
    protected void onMessage(ACLMessage request) {
        if (request.performative() != Performative.REQUEST) {
            return;
        }
        String limit = request.userProperty(PRIME_LIMIT);
        ACLMessage.Builder reply = reply(request, Performative.INFORM).content(request.content());
        if (limit != null) {
            reply.userProperty("primes", Integer.toString(Primes.countUpTo(Integer.parseInt(limit))));
        }
        send(reply);
    }
}
