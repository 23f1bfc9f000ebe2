package org.siebog.api;

import java.io.Serializable;

/**
 * A running agent as the platform's directory knows it: what {@link AgentManager#start} returns and
 * {@link AgentManager#agents()} lists. A snapshot: the agent may have stopped or moved since.
 *
 * @param aid        the agent's name, the same wherever it runs
 * @param agentClass the name of its agent class (an EJB name, or a client agent's module name)
 * @param location   the name of the node (or, for client agents, the id of the device) hosting it
 */
public record AgentInfo(AID aid, String agentClass, String location) implements Serializable {
}
