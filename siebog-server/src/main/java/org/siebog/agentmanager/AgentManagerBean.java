package org.siebog.agentmanager;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.siebog.agent.AgentClass;
import org.siebog.api.AID;
import org.siebog.api.AgentClassInfo;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentKind;
import org.siebog.api.AgentManager;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.UnknownAgentClassException;
import org.siebog.api.UnknownAgentException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodes;
import org.siebog.df.ServiceDirectory;
import org.siebog.df.ServiceSubscriptions;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.placement.PlacementSelector;
import org.siebog.placement.PlacementSelectors;
import org.siebog.topic.TopicSubscriptions;

/**
 * Agents at the level of the cluster: a new agent goes to the node the placement selector picks
 * (or the one asked for), wherever the request arrived; stop and find work from any node.
 */
@Singleton
@Local(AgentManager.class)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class AgentManagerBean implements AgentManager {

    @Inject
    AgentClassRegistry classes;

    @Inject
    AgentDirectory directory;

    @Inject
    LocalAgents local;

    @Inject
    Mobility mobility;

    @Inject
    ClusterNode cluster;

    @Inject
    RemoteNodes remote;

    @Inject
    ClientAgents clientAgents;

    @Inject
    ServiceDirectory services;

    @Inject
    ServiceSubscriptions subscriptions;

    @Inject
    TopicSubscriptions topics;

    private final PlacementSelector placement = PlacementSelectors.fromSystemProperty();

    @Override
    public AgentInfo start(String agentClass, String name, Map<String, String> args) {
        return start(agentClass, name, args, null);
    }

    @Override
    public AgentInfo start(String agentClass, String name, Map<String, String> args, String node) {
        return start(agentClass, name, args, node, null);
    }

    @Override
    public AgentInfo start(String agentClass, String name, Map<String, String> args, String node, String device) {
        AgentClass type = classes.find(agentClass).orElseThrow(() -> new UnknownAgentClassException(agentClass));
        AID aid = local.aidOf(name);
        Map<String, String> startArgs = args == null ? Map.of() : Map.copyOf(args);
        String target;
        String onDevice = null;
        if (type.kind() == AgentKind.CLIENT) {
            if (node != null) {
                throw new InvalidAgentRequestException(type.name() + " is a client agent: it runs on a device, so give \"device\", not \"node\"");
            }
            ClientAgents.DeviceChoice chosen = clientAgents.place(type.name(), device);
            target = chosen.node(); // its proxy goes where the device's socket is
            onDevice = chosen.device();
        } else {
            if (device != null) {
                throw new InvalidAgentRequestException(type.name() + " is a server agent: it runs on a node, so give \"node\", not \"device\"");
            }
            List<String> members = cluster.members();
            if (node != null && !members.contains(node)) {
                throw new InvalidAgentRequestException("there is no node '" + node + "' in the cluster; its nodes are " + members);
            }
            target = node != null ? node : placement.select(members);
        }
        if (target.equals(cluster.name())) {
            return local.start(type.name(), name, startArgs, node != null, onDevice);
        }
        remote.start(target, type.name(), name, startArgs, node != null, onDevice);
        return new AgentInfo(aid, type.name(), onDevice != null ? onDevice : target);
    }

    @Override
    public void stop(AID aid) {
        DirectoryEntry entry = directory.lookup(aid).orElseThrow(() -> new UnknownAgentException(aid));
        if (entry.balanced()) {
            // Unregister first, so no node creates a new instance; then stop the instances that exist.
            directory.unregister(aid);
            for (String node : cluster.members()) {
                try {
                    stopOn(node, aid, false);
                } catch (UnknownAgentException noInstanceThere) {
                    // that node never handled a message for it
                }
            }
        } else {
            stopOn(entry.node(), aid, true);
        }
        services.agentStopped(aid);
        subscriptions.agentStopped(aid);
        topics.agentStopped(aid);
    }

    @Override
    public AgentInfo move(AID aid, String node) {
        DirectoryEntry entry = directory.lookup(aid).orElseThrow(() -> new UnknownAgentException(aid));
        if (entry.kind() != AgentKind.STATEFUL) {
            throw new InvalidAgentRequestException(aid + " is a " + entry.kind().name().toLowerCase() + " agent: only a stateful agent"
                    + " moves between nodes (its saved state is what moves)" + (entry.kind() == AgentKind.CLIENT
                            ? "; a client agent moves between devices: give \"device\"" : "; stop it and start it on " + node));
        }
        List<String> members = cluster.members();
        if (node == null || !members.contains(node)) {
            throw new InvalidAgentRequestException("there is no node '" + node + "' in the cluster; its nodes are " + members);
        }
        if (entry.node().equals(cluster.name())) {
            return mobility.moveNow(aid, node);
        }
        return new AgentInfo(aid, entry.agentClass(), remote.move(entry.node(), aid, node, null, true));
    }

    @Override
    public AgentInfo moveToDevice(AID aid, String device) {
        return mobility.moveClientAgent(aid, device, true);
    }

    private void stopOn(String node, AID aid, boolean unregister) {
        if (node.equals(cluster.name())) {
            local.stop(aid, unregister);
        } else {
            remote.stop(node, aid, unregister);
        }
    }

    @Override
    public Optional<AgentInfo> find(AID aid) {
        return directory.lookup(aid).map(DirectoryEntry::info);
    }

    @Override
    public List<AgentInfo> agents() {
        return directory.all().stream().map(DirectoryEntry::info).toList();
    }

    @Override
    public List<AgentClassInfo> agentClasses() {
        return classes.all().stream().map(AgentClass::info).toList();
    }
}
