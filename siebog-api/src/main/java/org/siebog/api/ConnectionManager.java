package org.siebog.api;

import java.util.List;

/**
 * Cluster membership: which nodes there are and which one this code runs on. All nodes are equal;
 * any of them routes any message, so an agent rarely needs to know its node. It does when it pins
 * work to a place, for instance when it starts agents on a named node through
 * {@link AgentManager#start(String, String, java.util.Map, String)}.
 *
 * <p>Inject it in a bean of any deployment with
 * {@code @EJB(lookup = ConnectionManager.JNDI_NAME) ConnectionManager connections;} (inside
 * Siebog's own deployment a plain {@code @EJB} will do). Thread-safe.
 */
public interface ConnectionManager {

    /** Where the ConnectionManager is bound, for beans in other deployments to look it up. */
    String JNDI_NAME = "java:global/siebog/siebog-server/ConnectionManagerBean!org.siebog.api.ConnectionManager";

    /**
     * The node this code runs on.
     *
     * @return its name ({@code jboss.node.name})
     */
    String localNode();

    /**
     * The members of the cluster now, in the cluster view's order, each with its {@link NodeHealth}:
     * every node is asked at once and waited for up to a second (one that has not answered by then is
     * listed without its figures).
     *
     * @return one entry per node, this one included
     */
    List<NodeInfo> nodes();
}
