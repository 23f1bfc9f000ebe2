package org.siebog.agentmanager;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentKind;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.api.UnknownAgentException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodes;
import org.siebog.delivery.AgentHost;
import org.siebog.delivery.AgentMoves;
import org.siebog.delivery.Departures;
import org.siebog.delivery.Mailbox;
import org.siebog.delivery.MessageRouter;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.platform.Failures;
import org.siebog.platform.NodeEvent;
import org.siebog.replication.AgentJournal;
import org.siebog.replication.ReplicationLog;

/**
 * Moves stateful agents between nodes, JADE's {@code doMove} without its loss window: the agent
 * leaves this node between two messages, its new node carries on from the state it leaves with
 * exactly as a takeover after a crash does, and the messages sent to it meanwhile wait here and
 * follow it in order.
 *
 * <ol>
 *   <li>Here: the agent's departure opens (messages for it wait there, unacknowledged), its
 *       mailbox stops taking messages and, once the message in hand is done, the journal saves the
 *       state with the position handled; the messages still queued are in the inbox log, written.</li>
 *   <li>There ({@link #adopt}): the agent is resumed from that record and the log, as in a
 *       failover, and the directory names the new node.</li>
 *   <li>Here: the departure hands on what waited, in order, and closes; anything that still
 *       arrives here is forwarded. Each sender's messages stay in order across the change of node
 *       ({@code ReceiverRoutes}).</li>
 * </ol>
 *
 * If the new node cannot take the agent (it refuses, or leaves), the agent is resumed here the
 * same way and what waited is admitted here. If this node dies during a move, the directory still
 * names it and the failover takes the agent over from the same record and log.
 */
@ApplicationScoped
public class Mobility implements AgentMoves {

    private static final Logger LOG = Logger.getLogger(Mobility.class.getName());
    /** How long a move waits for the agent's current message and its hand-over before telling its caller so (it goes on). */
    private static final long MOVE_PATIENCE_S = 30;

    @Inject
    AgentHost host;

    @Inject
    Departures departures;

    @Inject
    MessageRouter router;

    @Inject
    AgentDirectory directory;

    @Inject
    ClusterNode cluster;

    @Inject
    RemoteNodes remote;

    @Inject
    LocalAgents local;

    @Inject
    ClientAgents clientAgents;

    @Inject
    AgentClassRegistry classes;

    @Inject
    ReplicationLog log;

    @Inject
    MeterRegistry meters;

    @Inject
    Event<NodeEvent> events;

    @Resource
    ManagedExecutorService workers;

    private Counter moved;

    @PostConstruct
    void meters() {
        moved = Counter.builder("siebog.agents.moved").description("Agents this node moved to other nodes").register(meters);
    }

    @Override
    public void moveSoon(AID aid, String node) {
        check(aid, node);
        workers.execute(() -> {
            try {
                move(aid, node).join();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "the move of " + aid + " to " + node + " that it asked for failed: " + Failures.rootMessage(e)
                        + "; it carries on on " + cluster.name());
            }
        });
    }

    /**
     * Moves an agent of this node to {@code node}; returns once it runs there (or, if it could not
     * go, here again).
     */
    public AgentInfo moveNow(AID aid, String node) {
        if (!cluster.lease().holds()) {
            throw cluster.lease().refusal(); // its agents may be running elsewhere already
        }
        CompletableFuture<DirectoryEntry> done = move(aid, node);
        try {
            return done.get(MOVE_PATIENCE_S, TimeUnit.SECONDS).info();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteNodeException("interrupted while moving " + aid);
        } catch (TimeoutException e) {
            throw new RemoteNodeException("the move of " + aid + " to " + node + " was not over within " + MOVE_PATIENCE_S
                    + " s (its current message takes that long); it goes on, and GET /api/agents/{aid} shows where the agent is");
        } catch (ExecutionException e) {
            throw Failures.refusal(e, cause -> new RemoteNodeException("the move of " + aid + " failed: " + cause));
        }
    }

    /** The move's checks, before anything changes; returns the agent's mailbox here. */
    private Mailbox check(AID aid, String node) {
        List<String> members = cluster.members();
        if (!members.contains(node)) {
            throw new InvalidAgentRequestException("there is no node '" + node + "' in the cluster; its nodes are " + members);
        }
        if (node.equals(cluster.name())) {
            throw new InvalidAgentRequestException(aid + " is on " + node + " already");
        }
        DirectoryEntry entry = directory.lookup(aid).orElseThrow(() -> new UnknownAgentException(aid));
        Mailbox mailbox = host.owned(aid);
        if (mailbox == null || !entry.node().equals(cluster.name())) {
            throw new AgentMovingException(aid, "it is not on " + cluster.name() + " (any more); ask again");
        }
        if (entry.kind() != AgentKind.STATEFUL) { // a client agent's proxy is replicated too, but goes where its device's socket is
            throw new InvalidAgentRequestException(aid + " is a " + entry.kind().name().toLowerCase()
                    + " agent: only a stateful agent moves (its saved state is what moves); stop it and start it on " + node);
        }
        return mailbox;
    }

    private CompletableFuture<DirectoryEntry> move(AID aid, String node) {
        Mailbox mailbox = check(aid, node);
        if (!departures.open(aid)) {
            throw new AgentMovingException(aid, "it is moving already");
        }
        DirectoryEntry entry = directory.lookup(aid).orElseThrow(() -> new UnknownAgentException(aid));
        AgentJournal journal = (AgentJournal) mailbox.journal();
        long began = System.nanoTime();
        CompletableFuture<Boolean> handedOver = new CompletableFuture<>();
        host.leave(aid, mailbox, handledSeq -> {
            try {
                journal.handOver(handledSeq).whenComplete((stored, failed) -> handedOver.complete(failed == null && stored));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, e, () -> "could not save the state of " + aid + " to move it");
                handedOver.complete(false);
            } finally {
                mailbox.agent().moved(mailbox.context()); // this instance goes; the agent carries on from its record
            }
        });
        return handedOver.thenApplyAsync(stored -> {
            if (!stored) {
                return stayHere(entry, new RemoteNodeException("the state of " + aid + " could not be saved, so it stays on "
                        + cluster.name()));
            }
            try {
                remote.adopt(node, aid);
            } catch (SiebogException refused) {
                if (!directory.lookup(aid).map(DirectoryEntry::node).orElse("").equals(node)) {
                    return stayHere(entry, refused);
                }
                // Its answer was lost, but the directory says it took the agent.
            }
            departures.close(aid, waiting -> router.forward(node, waiting.receiver(), waiting.id(), waiting.message()));
            moved.increment();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            events.fire(NodeEvent.now(NodeEvent.Type.AGENT_MOVED, cluster.name(), Map.of("agent", aid.toString(),
                    "from", cluster.name(), "to", node, "ms", Long.toString(ms))));
            LOG.info(() -> aid + " moved from " + cluster.name() + " to " + node + " in " + ms + " ms");
            return entry.movedTo(node);
        }, workers);
    }

    /**
     * The new node could not take the agent: it carries on here, from the record it left with, and
     * what waited is admitted here. Throws the reason, saying so (503: the move failed, nothing else did).
     */
    private DirectoryEntry stayHere(DirectoryEntry entry, SiebogException why) {
        LOG.warning(() -> entry.aid() + " could not move (" + why.getMessage() + "); it carries on on " + cluster.name());
        LocalAgents.Resumed resumed = local.resume(entry, log.reader());
        if (resumed != LocalAgents.Resumed.HERE) {
            LOG.severe(() -> entry.aid() + " could not carry on here: " + (resumed == LocalAgents.Resumed.GONE ? "it has no saved record"
                    : "another node holds it"));
        }
        departures.close(entry.aid(), waiting -> router.admitHere(waiting.receiver(), waiting.id(), waiting.message()));
        throw new RemoteNodeException(entry.aid() + " did not move (" + why.getMessage() + "); it carries on on " + cluster.name());
    }

    /**
     * Moves a client agent to another device through its saved state, from wherever its proxy is
     * ({@link ClientAgents#move}); returns where it goes once the move is under way, or, {@code
     * untilStarted}, once it has started there.
     */
    public AgentInfo moveClientAgent(AID aid, String device, boolean untilStarted) {
        DirectoryEntry entry = directory.lookup(aid).orElseThrow(() -> new UnknownAgentException(aid));
        if (entry.kind() != AgentKind.CLIENT) {
            throw new InvalidAgentRequestException(aid + " is a server agent: it moves between nodes: give \"node\"");
        }
        if (entry.node().equals(cluster.name())) {
            return clientAgents.move(aid, device, untilStarted);
        }
        return new AgentInfo(aid, entry.agentClass(), remote.move(entry.node(), aid, null, device, untilStarted));
    }

    /**
     * Takes in an agent that another node moves here: resumed from the record it left with and the
     * messages the log holds after it, as a takeover is ({@link LocalAgents#resume}): until its claim
     * on the agent in the directory is won, a message for it here is refused as one to try again.
     */
    public void adopt(AID aid) {
        if (!cluster.lease().holds()) {
            throw cluster.lease().refusal(); // cut off or rejoining: what it took in now would run twice
        }
        DirectoryEntry entry = directory.lookup(aid).orElseThrow(() -> new UnknownAgentException(aid));
        if (host.mailbox(aid) != null) {
            throw new AgentMovingException(aid, "it runs on " + cluster.name() + " already");
        }
        if (classes.find(entry.agentClass()).isEmpty()) {
            throw new InvalidAgentRequestException(cluster.name() + " cannot take " + aid + ": its class " + entry.agentClass()
                    + " is not deployed there");
        }
        switch (local.resume(entry, log.reader())) { // claims it from the node it leaves
            case HERE -> { }
            case ELSEWHERE -> throw new AgentMovingException(aid, "the directory no longer places it on " + entry.node());
            case GONE -> throw new InvalidAgentRequestException("no saved state of " + aid + " to carry on from");
        }
    }
}
