package org.siebog.rest;

import org.siebog.api.AgentClassInfo;

/** An agent class as the REST API shows it. */
public record AgentClassView(String name, String kind) {

    static AgentClassView of(AgentClassInfo agentClass) {
        return new AgentClassView(agentClass.name(), agentClass.kind().jsonName());
    }
}
