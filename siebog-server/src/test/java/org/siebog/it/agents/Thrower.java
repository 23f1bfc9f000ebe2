package org.siebog.it.agents;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.StatefulAgent;

/**
 * Records every message, then throws from its handler when the content is {@code boom} (a
 * RuntimeException) or {@code error} (an Error).
 */
@Stateful
public class Thrower extends RecordingAgent implements StatefulAgent {

    @Override
    protected void answer(ACLMessage message) {
        if ("boom".equals(message.content())) {
            throw new IllegalStateException("Thrower was told to fail (on purpose)");
        }
        if ("error".equals(message.content())) {
            throw new AssertionError("Thrower was told to fail with an Error (on purpose)");
        }
        super.answer(message);
    }
}
