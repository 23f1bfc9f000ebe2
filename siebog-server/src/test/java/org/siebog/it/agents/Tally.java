package org.siebog.it.agents;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * Counts the messages it handles and answers each with an INFORM of the count so far, to its
 * {@code replyTo} (a REST caller's reply inbox) or its sender. Its state is the count alone, so what
 * its saved record holds besides is Siebog's own bookkeeping.
 */
@Stateful
public class Tally extends AbstractAgent implements StatefulAgent {

    private long count;

    @Override
    protected void onMessage(ACLMessage message) {
        count++;
        if (message.replyTo() != null || message.sender() != null) {
            send(reply(message, Performative.INFORM).content(Long.toString(count)));
        }
    }
}
