package org.siebog.examples.pingpong;

import jakarta.ejb.Stateless;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatelessAgent;

/** Answers every REQUEST with an INFORM "pong"; keeps nothing, so it is stateless. */
@Stateless
public class Pong extends AbstractAgent implements StatelessAgent {

    @Override
    protected void onMessage(ACLMessage message) {
        if (message.performative() == Performative.REQUEST) {
            send(reply(message, Performative.INFORM).content("pong"));
        }
    }
}
