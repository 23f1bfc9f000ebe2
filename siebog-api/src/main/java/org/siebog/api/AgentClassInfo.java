package org.siebog.api;

import java.io.Serializable;

/**
 * A deployed agent class, as {@link AgentManager#agentClasses()} lists it and
 * {@code GET /siebog/api/agent-classes} shows it: start agents of it by this name.
 *
 * @param name the name agents are started by: the EJB name, or {@code app/module/Bean} when two
 *             deployments use the same EJB name; for a client agent, its module's file name without {@code .js}
 * @param kind where its agents run and how they keep state
 */
public record AgentClassInfo(String name, AgentKind kind) implements Serializable {
}
