package org.siebog.agentmanager;

import org.siebog.api.AID;
import org.siebog.api.SiebogException;

/** A move that cannot start now: the agent is moving already, or has just left the node asked. Try again. */
class AgentMovingException extends SiebogException {

    private static final long serialVersionUID = 1L;

    AgentMovingException(AID aid, String why) {
        super("cannot move " + aid + " now: " + why);
    }

    @Override
    public int status() {
        return 409;
    }
}
