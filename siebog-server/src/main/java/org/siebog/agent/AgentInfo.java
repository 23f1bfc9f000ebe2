package org.siebog.agent;

import java.io.Serializable;

/**
 * What the directory knows of a running agent.
 *
 * @param location the name of the node (or, for client agents, the id of the device) hosting it
 */
public record AgentInfo(AID aid, String agentClass, String location) implements Serializable {
}
