package org.siebog.agent;

/**
 * A deployed agent class: the name agents are started by, its kind, and where its bean is bound.
 *
 * @param name     the EJB name, or {@code app/module/bean} when two deployments use the same EJB name
 * @param jndiName the bean's global JNDI name ({@code java:global/...!org.siebog.agent.StatefulAgent})
 */
public record AgentClass(String name, AgentKind kind, String jndiName) {
}
