package org.siebog.agentmanager;

import org.siebog.platform.SiebogException;

/** An agent class that no deployment provides. */
public class UnknownAgentClassException extends SiebogException {

    public UnknownAgentClassException(String agentClass) {
        super("unknown agent class '" + agentClass + "'; GET /siebog/api/agent-classes lists the deployed ones");
    }
}
