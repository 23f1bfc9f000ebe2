package org.siebog.it.agents;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * Publishes on request: a REQUEST "N topic" sends N INFORMs "&lt;name&gt;-0" ... "&lt;name&gt;-(N-1)"
 * to {@code topic}, then answers INFORM "published N" (to a sender, if any).
 */
@Stateful
public class Publisher extends AbstractAgent implements StatefulAgent {

    @Override
    protected void onMessage(ACLMessage message) {
        if (message.performative() != Performative.REQUEST || message.content() == null) {
            return;
        }
        String[] request = message.content().split(" ", 2);
        int n = Integer.parseInt(request[0]);
        for (int i = 0; i < n; i++) {
            send(ACLMessage.builder(Performative.INFORM).receiver(topic(request[1])).content(aid().name() + "-" + i));
        }
        if (message.sender() != null) {
            send(reply(message, Performative.INFORM).content("published " + n));
        }
    }
}
