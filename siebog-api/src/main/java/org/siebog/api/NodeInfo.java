package org.siebog.api;

import java.io.Serializable;

/**
 * A member of the cluster, as {@link ConnectionManager#nodes()} lists it. A snapshot of one moment.
 *
 * @param name    the node's name ({@code jboss.node.name}); the location of the agents it hosts
 * @param address host:port of the node's HTTP listener
 * @param agents  the agents running on it
 * @param health  its figures, or null when it did not answer within a second (busy, or leaving the cluster)
 */
public record NodeInfo(String name, String address, int agents, NodeHealth health) implements Serializable {
}
