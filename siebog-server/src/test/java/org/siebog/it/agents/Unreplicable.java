package org.siebog.it.agents;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.StatefulAgent;

/** A stateful agent whose state cannot be serialised, so it could not survive its node: it must not start. */
@Stateful
public class Unreplicable extends AbstractAgent implements StatefulAgent {

    private final Thread worker = new Thread(() -> { });

    @Override
    protected void onMessage(ACLMessage message) {
    }
}
