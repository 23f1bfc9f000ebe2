package org.siebog.examples.pingpong;

import jakarta.ejb.Stateless;

import org.siebog.agent.AbstractAgent;
import org.siebog.agent.StatelessAgent;
import org.siebog.message.ACLMessage;
import org.siebog.message.Performative;

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
