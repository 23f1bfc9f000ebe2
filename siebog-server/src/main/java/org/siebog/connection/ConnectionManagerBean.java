package org.siebog.connection;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.siebog.delivery.AgentHost;

/**
 * The node list of a single-node platform: this node. Cluster membership (JGroups views) replaces
 * it when nodes join.
 */
@Singleton
@Local(ConnectionManager.class)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class ConnectionManagerBean implements ConnectionManager {

    @Inject
    AgentHost host;

    @Override
    public String localNode() {
        return System.getProperty("jboss.node.name", hostName());
    }

    @Override
    public List<NodeInfo> nodes() {
        return List.of(new NodeInfo(localNode(), httpAddress(), host.count()));
    }

    private static String httpAddress() {
        String bind = System.getProperty("jboss.bind.address", "127.0.0.1");
        int port = Integer.getInteger("jboss.http.port", 8080) + Integer.getInteger("jboss.socket.binding.port-offset", 0);
        return bind + ":" + port;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
