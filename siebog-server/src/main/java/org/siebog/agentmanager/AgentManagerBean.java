package org.siebog.agentmanager;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.naming.InitialContext;
import javax.naming.NamingException;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.siebog.agent.AID;
import org.siebog.agent.Agent;
import org.siebog.agent.AgentClass;
import org.siebog.agent.AgentInfo;
import org.siebog.connection.ConnectionManager;
import org.siebog.delivery.AgentHost;
import org.siebog.delivery.Mailbox;
import org.siebog.directory.AgentDirectory;
import org.siebog.platform.PlatformConfig;

/**
 * Starts agents on this node: claims the name in the directory, creates the bean through JNDI
 * (a new instance for a stateful agent, the pool for a stateless one), gives it a mailbox, runs
 * its {@code onStart}, then lets messages through.
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
    AgentHost host;

    @Inject
    ConnectionManager connections;

    @Override
    public AgentInfo start(String agentClass, String name, Map<String, String> args) {
        AgentClass type = classes.find(agentClass).orElseThrow(() -> new UnknownAgentClassException(agentClass));
        AID aid;
        try {
            aid = new AID(name, PlatformConfig.SYSTEM.platformName());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidAgentRequestException("bad agent name: " + e.getMessage());
        }
        AgentInfo info = new AgentInfo(aid, type.name(), connections.localNode());
        if (!directory.register(info)) {
            throw new AgentNameInUseException(aid);
        }
        Agent agent;
        try {
            agent = (Agent) new InitialContext().lookup(type.jndiName());
        } catch (NamingException | RuntimeException e) {
            directory.unregister(aid);
            throw new InvalidAgentRequestException("could not create an agent of class " + type.name() + ": " + e, e);
        }
        Mailbox mailbox = host.host(aid, agent);
        try {
            agent.start(mailbox.context(), args == null ? Map.of() : Map.copyOf(args));
        } catch (RuntimeException e) {
            host.discard(aid);
            directory.unregister(aid);
            throw new InvalidAgentRequestException("agent " + aid + " failed to start: " + rootMessage(e), e);
        }
        mailbox.activate();
        return info;
    }

    @Override
    public void stop(AID aid) {
        if (directory.lookup(aid).isEmpty()) {
            throw new UnknownAgentException(aid);
        }
        host.stop(aid, () -> directory.unregister(aid));
    }

    @Override
    public Optional<AgentInfo> find(AID aid) {
        return directory.lookup(aid);
    }

    @Override
    public List<AgentInfo> agents() {
        return List.copyOf(directory.all());
    }

    @Override
    public List<AgentClass> agentClasses() {
        return classes.all();
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.toString();
    }
}
