package org.siebog.connection;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
import org.siebog.api.NodeHealth;
import org.siebog.api.NodeInfo;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodes;
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

    @Inject
    RemoteNodes remote;

    @Inject
    NodeHealthProbe health;

    @Inject
    ClusterEvents events;

    /** How long {@link #nodes()} waits for the other nodes' figures. */
    static final long HEALTH_PATIENCE_MS = 1_000;

    @PostConstruct
    void join() {
        cluster.onViewChange(events::viewChanged);
        cluster.onViewChange(failover::onView);
        cluster.start(System.getProperty("jboss.node.name", "node1"), httpAddress(), requests, requests);
    }

    @Override
    public String localNode() {
        return cluster.name();
    }

    @Override
    public List<NodeInfo> nodes() {
        List<String> members = cluster.members();
        Map<String, CompletableFuture<NodeHealth>> asked = new LinkedHashMap<>();
        for (String node : members) { // all at once: the slowest member, not their sum, is what a caller waits for
            asked.put(node, node.equals(cluster.name()) ? CompletableFuture.completedFuture(health.health()) : remote.health(node));
        }
        Map<String, Long> agents = countByNode(directory.all());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HEALTH_PATIENCE_MS);
        return members.stream()
                .map(node -> new NodeInfo(node, cluster.httpAddress(node), agents.getOrDefault(node, 0L).intValue(),
                        RemoteNodes.answeredBy(asked.get(node), deadline)))
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
