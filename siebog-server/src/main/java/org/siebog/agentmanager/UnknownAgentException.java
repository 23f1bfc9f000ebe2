package org.siebog.agentmanager;

import org.siebog.agent.AID;
import org.siebog.platform.SiebogException;

/** An AID that names no running agent. */
public class UnknownAgentException extends SiebogException {

    public UnknownAgentException(AID aid) {
        super("no agent " + aid + " on this platform");
    }

    private UnknownAgentException(String message) {
        super(message);
    }

    /** The refusal as another node worded it (refusals cross the cluster as a kind and a text, see {@code Refusal}). */
    public static UnknownAgentException asReported(String message) {
        return new UnknownAgentException(message);
    }

    @Override
    public int status() {
        return 404;
    }
}
