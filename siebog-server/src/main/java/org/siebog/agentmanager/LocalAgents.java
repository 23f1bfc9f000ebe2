package org.siebog.agentmanager;

import java.util.Map;

import javax.naming.InitialContext;
import javax.naming.NamingException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.agent.AID;
import org.siebog.agent.Agent;
import org.siebog.agent.AgentClass;
import org.siebog.agent.AgentInfo;
import org.siebog.agent.AgentKind;
import org.siebog.cluster.ClusterNode;
import org.siebog.delivery.AgentHost;
import org.siebog.delivery.Mailbox;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.platform.PlatformConfig;

/**
 * Starts and stops agents on this node: claims the name in the directory, creates the bean through
 * JNDI (a new instance for a stateful agent, the pool for a stateless one), gives it a mailbox, runs
 * its {@code onStart}, then lets messages through. The AgentManager decides which node; the chosen
 * node runs this.
 */
@ApplicationScoped
public class LocalAgents {

    @Inject
    AgentClassRegistry classes;

    @Inject
    AgentDirectory directory;

    @Inject
    AgentHost host;

    @Inject
    ClusterNode cluster;

    public AgentInfo start(String agentClass, String name, Map<String, String> args, boolean pinned) {
        AgentClass type = classes.find(agentClass).orElseThrow(() -> new UnknownAgentClassException(agentClass));
        AID aid = aidOf(name);
        DirectoryEntry entry = new DirectoryEntry(aid, type.name(), type.kind(), cluster.name(),
                pinned && type.kind() == AgentKind.STATELESS, args);
        if (!directory.register(entry)) {
            throw new AgentNameInUseException(aid);
        }
        try {
            instantiate(entry, type);
        } catch (RuntimeException e) {
            directory.unregister(aid);
            throw e;
        }
        return entry.info();
    }

    /**
     * This node's instance of a balanced stateless agent, created on the first message it is
     * chosen to handle here.
     */
    public synchronized Mailbox instanceOf(DirectoryEntry entry) {
        Mailbox mailbox = host.mailbox(entry.aid());
        if (mailbox != null) {
            return mailbox;
        }
        AgentClass type = classes.find(entry.agentClass()).orElseThrow(() -> new UnknownAgentException(entry.aid()));
        return instantiate(entry, type);
    }

    /** Stops this node's agent (or its instance of a balanced one); a hosted agent also leaves the directory. */
    public void stop(AID aid, boolean unregister) {
        if (host.mailbox(aid) == null) {
            throw new UnknownAgentException(aid);
        }
        host.stop(aid, unregister ? () -> directory.unregister(aid) : () -> { });
    }

    private Mailbox instantiate(DirectoryEntry entry, AgentClass type) {
        Agent agent;
        try {
            agent = (Agent) new InitialContext().lookup(type.jndiName());
        } catch (NamingException | RuntimeException e) {
            throw new InvalidAgentRequestException("could not create an agent of class " + type.name() + ": " + e, e);
        }
        Mailbox mailbox = host.host(entry.aid(), agent, entry.balanced());
        try {
            agent.start(mailbox.context(), entry.args());
        } catch (RuntimeException e) {
            host.discard(entry.aid());
            throw new InvalidAgentRequestException("agent " + entry.aid() + " failed to start: " + rootMessage(e), e);
        }
        mailbox.activate();
        return mailbox;
    }

    static AID aidOf(String name) {
        try {
            return new AID(name, PlatformConfig.SYSTEM.platformName());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidAgentRequestException("bad agent name: " + e.getMessage());
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.toString();
    }
}
