package org.siebog.cluster;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.NodeHealth;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.api.UnknownAgentException;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.message.MessageId;
import org.siebog.platform.Failures;
import org.siebog.platform.NodeEvent;
import org.siebog.platform.Beans;

/** What this node asks of the others: deliver messages (batched, see {@link NodeLink}), start and stop agents. */
@ApplicationScoped
public class RemoteNodes {

    private static final Logger LOG = Logger.getLogger(RemoteNodes.class.getName());
    private static final long CALL_TIMEOUT_S = 35;
    private static final long REDIRECT_PATIENCE_MS = 30_000;

    @Inject
    ClusterNode cluster;

    @Inject
    AgentDirectory directory;

    @Resource
    ManagedThreadFactory threads;

    @Resource
    ManagedScheduledExecutorService retries;

    @Inject
    MeterRegistry registry;

    private final ConcurrentMap<String, NodeLink> links = new ConcurrentHashMap<>();
    private NodeLink.Meters meters;

    /** Made when the application starts, not at its first message: its meters are scraped from the start. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object started) {
    }

    @PostConstruct
    void followView() {
        cluster.onViewChange(this::closeLinksToDeparted);
        meters = NodeLink.Meters.of(registry);
        Gauge.builder("siebog.link.queued", links, all -> all.values().stream().mapToLong(NodeLink::queuedBytes).sum())
                .baseUnit("bytes").description("Messages waiting to go to other nodes (estimated bytes)").register(registry);
    }

    @PreDestroy
    void closeAll() {
        links.values().forEach(NodeLink::close);
        links.clear();
    }

    /** Completes when {@code node} has admitted the message to the receiver's mailbox. */
    public CompletableFuture<Void> deliver(String node, AID receiver, MessageId id, ACLMessage message) {
        return link(node).send(receiver, id, message);
    }

    /**
     * One message for several receivers on {@code node}: it crosses the wire once, in one request
     * with all of them. Returns each receiver's admission there, in order.
     */
    public List<CompletableFuture<Void>> deliverAll(String node, List<NodeOp.Delivery> deliveries) {
        return link(node).sendAll(deliveries);
    }

    private NodeLink link(String node) {
        return links.computeIfAbsent(node, this::openLink);
    }

    /**
     * A message whose node left before admitting it goes to wherever its receiver is now: once the
     * receiver's agent has been taken over by a survivor (the directory names a member), or for a
     * balanced stateless agent, at once to another node. Gives up after {@link #REDIRECT_PATIENCE_MS}.
     */
    private void redirect(NodeLink.Outgoing o, long deadline) {
        String node;
        try {
            NodeLease lease = cluster.lease();
            if (!o.mayLeave(lease.holds(), lease.epoch())) {
                throw o.lostTouch(cluster, "the node of " + o.receiver());
            }
            DirectoryEntry entry = directory.lookup(o.receiver()).orElseThrow(() -> new UnknownAgentException(o.receiver()));
            List<String> members = cluster.members();
            node = entry.balanced() ? members.get(0) : entry.node();
            if (!members.contains(node)) {
                if (System.currentTimeMillis() > deadline) {
                    throw new RemoteNodeException(node, "its agent " + o.receiver() + " was not taken over within "
                            + REDIRECT_PATIENCE_MS / 1000 + " s");
                }
                retries.schedule(() -> redirect(o, deadline), 50, TimeUnit.MILLISECONDS);
                return;
            }
        } catch (SiebogException refusal) {
            o.admitted().completeExceptionally(refusal);
            return;
        }
        link(node).send(o);
    }

    /**
     * Starts an agent on {@code node} and returns once it has started there (or rethrows the
     * refusal); {@code device} is where a client agent runs (its proxy goes on {@code node}).
     */
    public void start(String node, String agentClass, String name, Map<String, String> args, boolean pinned, String device) {
        call(node, new NodeOp.StartAgent(agentClass, name, args, pinned, device));
    }

    /** Sends a frame to a device connected to {@code node}; in order with this node's other pushes there. */
    public void pushToDevice(String node, String device, String frame) {
        tell(node, new NodeOp.PushToDevice(device, frame));
    }

    /** Passes a device's report ({@code op}: started, ack, ...) to the node holding the agent's proxy. */
    public void deviceEvent(String node, AID aid, String device, String op, long seq, String detail) {
        tell(node, new NodeOp.DeviceEvent(aid, device, op, seq, detail));
    }

    /**
     * A request whose answer nobody waits for: a failure is only logged (the device sweep repairs what it
     * affects; a sniffer misses a copy).
     */
    public void tell(String node, NodeOp request) {
        cluster.request(node, request.toBytes()).whenComplete((answer, failure) -> {
            if (failure != null) {
                LOG.log(Level.FINE, request.getClass().getSimpleName() + " for " + node + " failed", failure);
            }
        });
    }

    /** Tells every other member what this node saw; nobody waits for the answers (a failure is only logged). */
    public void tellOthers(NodeEvent event) {
        tellOthers(new NodeOp.Event(event));
    }

    /** Tells every other member {@code op}; nobody waits for the answers (a failure is only logged). */
    public void tellOthers(NodeOp op) {
        byte[] request = op.toBytes();
        for (String node : cluster.members()) {
            if (!node.equals(cluster.name())) {
                cluster.request(node, request).whenComplete((answer, failure) -> {
                    if (failure != null) {
                        LOG.log(Level.FINE, op.getClass().getSimpleName() + " for " + node + " was not delivered", failure);
                    }
                });
            }
        }
    }

    /** The messages per second of the devices joined to {@code node}, by id; fails when it does not answer or its answer is unreadable. */
    public CompletableFuture<Map<String, Double>> deviceRates(String node) {
        return query(node, new NodeOp.DeviceRates(), NodeOp.DeviceRates::read);
    }

    /**
     * What {@code answer} gave by {@code deadline} ({@link System#nanoTime()}), or null when it had not
     * answered by then or failed: for figures a caller shows, who waits for the slowest node only so long.
     */
    public static <T> T answeredBy(CompletableFuture<T> answer, long deadline) {
        try {
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }

    /** {@code node}'s figures, as it measures them; fails when it does not answer or its answer is unreadable. */
    public CompletableFuture<NodeHealth> health(String node) {
        return query(node, new NodeOp.Health(), NodeOp.Health::read);
    }

    /** How a query's answer is read. */
    private interface AnswerReader<T> {
        T read(byte[] answer) throws IOException;
    }

    /** Asks {@code node} without blocking; its answer read by {@code reader}, an unreadable one a failure that says so. */
    private <T> CompletableFuture<T> query(String node, NodeOp op, AnswerReader<T> reader) {
        return cluster.request(node, op.toBytes()).thenApply(answer -> {
            try {
                return reader.read(answer);
            } catch (IOException e) {
                throw new RemoteNodeException(node, "its answer was unreadable: " + e);
            }
        });
    }

    /**
     * Moves an agent of {@code node}: a stateful one to node {@code target}, or a client agent whose
     * proxy is there to {@code device} (see {@link NodeOp.MoveAgent}); returns where it runs once it
     * runs there, or rethrows the refusal.
     */
    public String move(String node, AID aid, String target, String device, boolean untilStarted) {
        byte[] answer = call(node, new NodeOp.MoveAgent(aid, target, device, untilStarted));
        try {
            return NodeOp.MoveAgent.read(answer);
        } catch (IOException e) {
            throw new RemoteNodeException(node, "its answer was unreadable: " + e);
        }
    }

    /** Has {@code node} take in an agent that this node moves there; returns once it runs there, or rethrows the refusal. */
    public void adopt(String node, AID aid) {
        call(node, new NodeOp.AdoptAgent(aid));
    }

    /** Stops an agent (or a balanced agent's instance) on {@code node}. */
    public void stop(String node, AID aid, boolean unregister) {
        call(node, new NodeOp.StopAgent(aid, unregister));
    }

    /** Asks and waits for the answer; returns it after a success, rethrows a refusal. */
    private byte[] call(String node, NodeOp request) {
        byte[] answer;
        try {
            answer = cluster.request(node, request.toBytes()).get(CALL_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteNodeException(node, "interrupted while waiting");
        } catch (TimeoutException e) {
            throw new RemoteNodeException(node, "no answer within " + CALL_TIMEOUT_S + " s");
        } catch (ExecutionException e) {
            throw Failures.refusal(e, cause -> new RemoteNodeException(node, cause.toString()));
        }
        try {
            NodeAnswer.afterSuccess(answer);
        } catch (IOException e) {
            throw new RemoteNodeException(node, "its answer was unreadable: " + e);
        }
        return answer;
    }

    private NodeLink openLink(String node) {
        NodeLink link = new NodeLink(node, Beans.direct(cluster), o -> redirect(o, System.currentTimeMillis() + REDIRECT_PATIENCE_MS), meters);
        Thread thread = threads.newThread(link);
        thread.setName("siebog-link-" + node);
        thread.start();
        return link;
    }

    private void closeLinksToDeparted(List<String> members) {
        links.entrySet().removeIf(e -> {
            if (!members.contains(e.getKey())) {
                e.getValue().close();
                return true;
            }
            return false;
        });
    }
}
