package org.siebog.connection;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.siebog.agentmanager.Failover;
import org.siebog.api.ConnectionManager;
import org.siebog.api.NodeInfo;
import org.siebog.cluster.ClusterNode;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;

/**
 * Cluster membership. Joins the cluster when the application starts (so a node is a member as
 * soon as it is deployed, before any request), and follows JGroups views as nodes join and leave.
 */
@Startup
@Singleton
@Local(ConnectionManager.class)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class ConnectionManagerBean implements ConnectionManager {

    @Inject
    ClusterNode cluster;

    @Inject
    NodeRequests requests;

    @Inject
    AgentDirectory directory;

    @Inject
    Failover failover;

    @PostConstruct
    void join() {
        cluster.onViewChange(failover::onView);
        cluster.start(System.getProperty("jboss.node.name", "node1"), httpAddress(), requests);
    }

    @Override
    public String localNode() {
        return cluster.name();
    }

    @Override
    public List<NodeInfo> nodes() {
        Map<String, Long> agents = countByNode(directory.all());
        return cluster.members().stream()
                .map(node -> new NodeInfo(node, cluster.httpAddress(node), agents.getOrDefault(node, 0L).intValue()))
                .toList();
    }

    /** Agents per node; a balanced stateless agent counts for the node it was started on. */
    private static Map<String, Long> countByNode(Collection<DirectoryEntry> entries) {
        return entries.stream().collect(Collectors.groupingBy(DirectoryEntry::node, Collectors.counting()));
    }

    private static String httpAddress() {
        String bind = System.getProperty("jboss.bind.address", "127.0.0.1");
        int port = Integer.getInteger("jboss.http.port", 8080) + Integer.getInteger("jboss.socket.binding.port-offset", 0);
        return bind + ":" + port;
    }
}
