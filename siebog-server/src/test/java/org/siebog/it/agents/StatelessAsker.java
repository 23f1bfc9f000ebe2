package org.siebog.it.agents;

import jakarta.ejb.Stateless;

import org.siebog.api.StatelessAgent;

/** A stateless, balanced {@link AskingAgent}: its answers come back through a reply inbox of the asking node. */
@Stateless
public class StatelessAsker extends AskingAgent implements StatelessAgent {
}
