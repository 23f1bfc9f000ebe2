package org.siebog.connection;

/**
 * A node of the cluster.
 *
 * @param address host:port of the node's HTTP listener
 * @param agents  agents running on it
 */
public record NodeInfo(String name, String address, int agents) {
}
