package org.siebog.it.agents;

import jakarta.ejb.Stateless;

import org.siebog.api.StatelessAgent;

/** A stateless (pooled) {@link RecordingAgent}: one AID, any bean instance per message. */
@Stateless
public class StatelessRecorder extends RecordingAgent implements StatelessAgent {
}
