package org.siebog.agentmanager;

import org.siebog.agent.AID;
import org.siebog.platform.SiebogException;

/** A start request for a name that a running agent already has. */
public class AgentNameInUseException extends SiebogException {

    public AgentNameInUseException(AID aid) {
        super("an agent named " + aid + " is already running");
    }

    @Override
    public int status() {
        return 409;
    }
}
