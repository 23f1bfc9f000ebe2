package org.siebog.it.agents;

import jakarta.ejb.Stateful;

import org.siebog.api.StatefulAgent;

/** A stateful {@link RecordingAgent}. */
@Stateful
public class Recorder extends RecordingAgent implements StatefulAgent {
}
