package org.siebog.examples.dfbench;

import jakarta.ejb.Stateless;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.StatelessAgent;

/**
 * An agent that only offers services in the directory facilitator, for the DF benchmark: the
 * directory keeps entries of running agents only, at most 32 per agent, so 100,000 registrations
 * are 3,125 of these. It never gets a message.
 */
@Stateless
public class DfHolder extends AbstractAgent implements StatelessAgent {

    @Override
    protected void onMessage(ACLMessage message) {
    }
}
