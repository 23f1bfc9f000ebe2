package org.siebog.connection;

import java.util.List;

/** Cluster membership: which nodes exist and which one this is. */
public interface ConnectionManager {

    String JNDI_NAME = "java:global/siebog/siebog-server/ConnectionManagerBean!org.siebog.connection.ConnectionManager";

    /** The name of the node this code runs on ({@code jboss.node.name}). */
    String localNode();

    List<NodeInfo> nodes();
}
