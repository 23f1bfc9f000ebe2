package org.siebog.agentmanager;

import java.util.Map;

import javax.naming.InitialContext;
import javax.naming.NamingException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.agent.AgentClass;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentKind;
import org.siebog.api.AgentManager;
import org.siebog.api.AgentNameInUseException;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.SiebogException;
import org.siebog.api.Topics;
import org.siebog.api.UnknownAgentClassException;
import org.siebog.api.UnknownAgentException;
import org.siebog.cluster.ClusterNode;
import org.siebog.delivery.AgentHost;
import org.siebog.delivery.Journal;
import org.siebog.delivery.LocalInstances;
import org.siebog.delivery.Mailbox;
import org.siebog.delivery.PlatformAgents;
import org.siebog.delivery.ReplyInboxes;
import org.siebog.delivery.StatelessJournal;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.platform.Failures;
import org.siebog.platform.PlatformConfig;
import org.siebog.replication.AgentJournal;
import org.siebog.replication.AgentRecord;
import org.siebog.replication.LogReader;
import org.siebog.replication.ReplicationLog;
import org.siebog.state.StateRefusedException;
import org.siebog.platform.Beans;

/**
 * Starts and stops agents on this node: claims the name in the directory, creates the bean through
 * JNDI (a new instance for a stateful agent, the pool for a stateless one), gives it a mailbox, runs
 * its {@code onStart}, then lets messages through. The AgentManager decides which node; the chosen
 * node runs this.
 */
@ApplicationScoped
public class LocalAgents implements LocalInstances {

    @Inject
    PlatformAgents platformAgents;

    @Inject
    AgentClassRegistry classes;

    @Inject
    AgentDirectory directory;

    @Inject
    AgentHost host;

    @Inject
    ClusterNode cluster;

    @Inject
    ReplicationLog log;

    @Inject
    ClientAgents clientAgents;

    /** @param device for a client agent, the device to run it on (its proxy lives here); else null */
    public AgentInfo start(String agentClass, String name, Map<String, String> args, boolean pinned, String device) {
        if (!cluster.lease().holds()) {
            throw cluster.lease().refusal();
        }
        AgentClass type = classes.find(agentClass).orElseThrow(() -> new UnknownAgentClassException(agentClass));
        AID aid = aidOf(name);
        DirectoryEntry entry = new DirectoryEntry(aid, type.name(), type.kind(), cluster.name(),
                pinned && type.kind() == AgentKind.STATELESS, args, type.kind() == AgentKind.CLIENT ? device : null);
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
     * Drops every agent hosted here but the platform's own (see {@link AgentHost#dropAll}): this node
     * lost touch with the cluster, and the others carry its agents on. Returns how many were dropped.
     */
    public int dropAll() {
        return host.dropAll(aid -> platformAgents.reserved(aid.name()));
    }

    /**
     * This node's instance of a balanced stateless agent, created on the first message it is
     * chosen to handle here.
     */
    @Override
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
        Mailbox mailbox = host.mailbox(aid);
        if (mailbox == null) {
            throw new UnknownAgentException(aid);
        }
        host.stop(aid, () -> {
            if (mailbox.journal() instanceof AgentJournal journal) {
                journal.stopped();
            }
            if (unregister) {
                directory.unregister(aid);
            }
            clientAgents.forget(aid, unregister);
        });
    }

    /**
     * Carries on a stateful agent whose node died (or that moves here): a new instance with the
     * state it last saved, then the messages logged for it that it had not handled, then whatever
     * arrives. A client agent's proxy is carried on the same way (its saved state is the deliveries its
     * device had not acknowledged), and then goes on with its device if that still runs the agent, or
     * waits for the sweep to start it on one.
     *
     * <p>Two survivors may set out to take over one agent (their views of who survives differed for
     * a moment, as when two nodes die a moment apart): the directory decides, by a compare-and-set
     * from the node it was on. Until this node has won that claim its mailbox admits nothing (a
     * sender is told to try again), and it names its own log in the agent's record only after
     * winning: a loser drops the mailbox, which must hold nothing a sender was told was admitted,
     * and must not leave the record pointing at its log.
     *
     * @param logged reads the agent's unsaved messages (only its own segments) from the inbox log
     * @return whether it runs here now, or on the node that claimed it first, or not at all
     */
    public Resumed resume(DirectoryEntry entry, LogReader logged) {
        AgentRecord record = log.load(entry.aid()).orElse(null);
        AgentClass type = classes.find(entry.agentClass()).orElse(null);
        if (record == null || type == null) {
            return Resumed.GONE;
        }
        DirectoryEntry here = entry.movedTo(cluster.name());
        boolean client = entry.kind() == AgentKind.CLIENT;
        Agent agent;
        try {
            agent = client ? clientAgents.proxy(here) : (Agent) new InitialContext().lookup(type.binding());
        } catch (NamingException e) {
            throw new IllegalStateException("cannot create an instance of " + type.name() + " to take over " + entry.aid(), e);
        }
        AgentJournal journal = AgentJournal.resumed(entry.aid(), agent, Beans.direct(log), record, logged.pending(entry.aid(), record));
        Mailbox mailbox = host.host(entry.aid(), agent, false, journal, prepared -> {
            prepared.holdUntilClaimed();
            agent.restoreState(prepared.context(), record.state());
            prepared.questionsLost(record.openQuestions(), entry.node());
            journal.replayed().forEach(prepared::replay); // ahead of anything a sender admits once it is claimed
        });
        if (!directory.claim(entry.node(), here)) {
            host.leave(entry.aid(), mailbox, handledUpTo -> { }); // another node claimed it first; this copy holds nothing
            clientAgents.forget(entry.aid(), false);
            return Resumed.ELSEWHERE;
        }
        try {
            journal.moved(); // the record names this node's log before anything is admitted here
        } catch (RuntimeException e) {
            // The agent carries on from its record as it stands: give it back to the node it was on, whose
            // departure the next view change (or the move's caller) deals with again.
            directory.claim(cluster.name(), entry);
            host.leave(entry.aid(), mailbox, handledUpTo -> { });
            clientAgents.forget(entry.aid(), false);
            throw e;
        }
        mailbox.claimed();
        mailbox.activate();
        if (client) {
            clientAgents.resumed(entry.aid());
        }
        return Resumed.HERE;
    }

    /** What became of an agent this node set out to take over. */
    public enum Resumed {
        /** It runs here now, from its saved state and logged messages. */
        HERE,
        /** Another node claimed it first: it runs there. */
        ELSEWHERE,
        /** It had no saved state (it died before it had finished starting) or its class is gone. */
        GONE
    }

    private Mailbox instantiate(DirectoryEntry entry, AgentClass type) {
        Agent agent;
        try {
            agent = type.kind() == AgentKind.CLIENT ? clientAgents.proxy(entry) : (Agent) new InitialContext().lookup(type.binding());
        } catch (NamingException | RuntimeException e) {
            classes.forget(); // its archive may have been redeployed without it
            throw new InvalidAgentRequestException("could not create an agent of class " + type.name() + ": " + e, e);
        }
        AgentJournal journal = type.kind() == AgentKind.STATELESS ? null : AgentJournal.starting(entry.aid(), agent, Beans.direct(log));
        Mailbox mailbox = host.host(entry.aid(), agent, entry.balanced(), journalOf(entry, type, journal), prepared -> { });
        try {
            agent.start(mailbox.context(), entry.args());
        } catch (RuntimeException e) {
            if (notTheAgentsFault(e)) {
                host.discard(entry.aid());
                clientAgents.forget(entry.aid(), false);
                throw e;
            }
            host.discard(entry.aid());
            clientAgents.forget(entry.aid(), true);
            throw new InvalidAgentRequestException("agent " + entry.aid() + " failed to start: " + Failures.rootMessage(e), e);
        }
        if (journal != null) {
            try {
                journal.started();
            } catch (RuntimeException e) { // its state cannot be serialised (the EJB container wraps the reason)
                host.discard(entry.aid());
                throw new InvalidAgentRequestException("agent " + entry.aid() + " cannot run as a stateful agent: "
                        + messageOfFirst(e, IllegalStateException.class), e);
            }
        }
        mailbox.activate();
        return mailbox;
    }

    /**
     * A stateful agent's own journal, and a client agent proxy's the same (what it holds for its device
     * is its state); a stateless agent's acknowledges its messages once handled.
     */
    private Journal journalOf(DirectoryEntry entry, AgentClass type, AgentJournal replicated) {
        return switch (type.kind()) {
            case STATEFUL, CLIENT -> replicated;
            case STATELESS -> new StatelessJournal();
        };
    }

    /**
     * A start that failed for the node's or the store's reasons rather than the agent's: its saved
     * state could not be read (503, also when the read took too long), its device did not answer in
     * time (504), or another failure of the node (5xx). The caller hears that status and the agent's
     * saved state stays as it was; anything else (the agent's own code failed) is a 400.
     */
    static boolean notTheAgentsFault(RuntimeException failure) {
        return failure instanceof StateRefusedException || failure instanceof SiebogException refusal && refusal.status() >= 500;
    }

    /** The AID a new agent called {@code name} gets. */
    AID aidOf(String name) {
        AID aid;
        try {
            aid = new AID(name, PlatformConfig.SYSTEM.platformName());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidAgentRequestException("bad agent name: " + e.getMessage());
        }
        if (ReplyInboxes.nodeOf(aid).isPresent()) {
            throw new InvalidAgentRequestException("bad agent name: names of the form reply-NODE-UUID are reserved for reply inboxes");
        }
        if (platformAgents.reserved(name)) {
            throw new AgentNameInUseException(aid); // the platform's own agents, on every node: df, topics, tuples
        }
        if (Topics.isTopic(aid)) {
            throw new InvalidAgentRequestException("bad agent name: names starting with '" + Topics.PREFIX + "' are topics");
        }
        return aid;
    }

    /** The message of the first {@code type} in the cause chain (the container wraps what an agent throws), else the root's. */
    private static String messageOfFirst(Throwable e, Class<? extends Throwable> type) {
        Throwable first = Failures.find(e, type);
        return first != null ? first.getMessage() : Failures.rootMessage(e);
    }
}
