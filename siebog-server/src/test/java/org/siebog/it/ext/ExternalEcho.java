package org.siebog.it.ext;

import java.util.Map;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * An agent that is not part of the Siebog deployment: {@code ExternalDeploymentIT} deploys it in an
 * archive of its own that sees Siebog's classes only through a module dependency. Answers every
 * REQUEST with an INFORM "{greeting} {content} #{n}", n counting the requests it handled (its state).
 */
@Stateful
public class ExternalEcho extends AbstractAgent implements StatefulAgent {

    private String greeting;
    private int handled;

    @Override
    protected void onStart(Map<String, String> args) {
        greeting = args.getOrDefault("greeting", "echo");
    }

    @Override
    protected void onMessage(ACLMessage message) {
        if (message.performative() == Performative.REQUEST) {
            handled++;
            send(reply(message, Performative.INFORM).content(greeting + " " + message.content() + " #" + handled));
        }
    }
}
