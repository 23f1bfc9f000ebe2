package org.siebog.it.agents;

import jakarta.ejb.Stateful;

import org.siebog.api.StatefulAgent;

/** A stateful {@link AskingAgent}: its answers field is its state. */
@Stateful
public class Asker extends AskingAgent implements StatefulAgent {
}
