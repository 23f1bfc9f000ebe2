package org.siebog.agent;

import org.siebog.api.AgentClassInfo;
import org.siebog.api.AgentKind;

/**
 * A deployed agent class: the name agents are started by, its kind, and where its bean is bound.
 *
 * @param name    the EJB name, or {@code app/module/bean} when two deployments use the same EJB name;
 *                for a client agent, its module's file name without {@code .js}
 * @param binding where it is found: the bean's global JNDI name
 *                ({@code java:global/...!org.siebog.api.StatefulAgent}), or for a client agent the
 *                path its devices load its ES module from ({@code /siebog/agents/Echo.js})
 */
public record AgentClass(String name, AgentKind kind, String binding) {

    /** The class as the API shows it: its name and kind, not where it is bound. */
    public AgentClassInfo info() {
        return new AgentClassInfo(name, kind);
    }
}
