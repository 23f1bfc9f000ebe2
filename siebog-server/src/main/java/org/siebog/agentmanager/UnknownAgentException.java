package org.siebog.agentmanager;

import org.siebog.agent.AID;
import org.siebog.platform.SiebogException;

/** An AID that names no running agent. */
public class UnknownAgentException extends SiebogException {

    public UnknownAgentException(AID aid) {
        super("no agent " + aid + " on this platform");
    }

    @Override
    public int status() {
        return 404;
    }
}
