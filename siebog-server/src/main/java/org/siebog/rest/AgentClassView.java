package org.siebog.rest;

import org.siebog.agent.AgentClass;

/** An agent class as the REST API shows it. */
public record AgentClassView(String name, String kind) {

    static AgentClassView of(AgentClass agentClass) {
        return new AgentClassView(agentClass.name(), agentClass.kind().jsonName());
    }
}
