package org.siebog.rest;

import org.siebog.api.AgentInfo;

/** An agent as the REST API shows it. */
public record AgentView(String aid, String agentClass, String location) {

    static AgentView of(AgentInfo info) {
        return new AgentView(info.aid().toString(), info.agentClass(), info.location());
    }
}
