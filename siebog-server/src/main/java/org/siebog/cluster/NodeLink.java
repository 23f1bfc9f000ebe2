package org.siebog.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.siebog.agent.AID;
import org.siebog.message.ACLMessage;
import org.siebog.message.MessageId;
import org.siebog.platform.SiebogException;

/**
 * The messages from this node to one other node, sent in batches: one thread drains everything
 * queued since its last send into one request, so under load many messages share one network
 * round trip, and at low load a message leaves at once (no timer, no waiting to fill a batch).
 * One queue and one thread per destination keep messages in the order they were posted, and
 * JGroups delivers a node's requests in order: per-agent ordering holds across nodes.
 */
final class NodeLink implements Runnable {

    private static final Logger LOG = Logger.getLogger(NodeLink.class.getName());
    private static final int MAX_BATCH = 512;

    record Outgoing(AID receiver, MessageId id, ACLMessage message, CompletableFuture<Void> admitted) {
    }

    private static final Outgoing CLOSE = new Outgoing(null, null, null, null);

    private final String node;
    private final ClusterNode cluster;
    /** Takes the messages this link could not get admitted because the node left, to try where their receivers are now. */
    private final Consumer<Outgoing> redirect;
    private final BlockingQueue<Outgoing> queue = new LinkedBlockingQueue<>();
    /** Only the sending thread writes requests. */
    private final Wire.Writer request = new Wire.Writer();
    private volatile boolean closed;

    NodeLink(String node, ClusterNode cluster, Consumer<Outgoing> redirect) {
        this.node = node;
        this.cluster = cluster;
        this.redirect = redirect;
    }

    /** Completes when the other node has admitted the message to the receiver's mailbox, or with its refusal. */
    CompletableFuture<Void> send(AID receiver, MessageId id, ACLMessage message) {
        CompletableFuture<Void> admitted = new CompletableFuture<>();
        send(new Outgoing(receiver, id, message, admitted));
        return admitted;
    }

    void send(Outgoing outgoing) {
        if (closed) {
            redirect.accept(outgoing);
        } else {
            queue.add(outgoing);
        }
    }

    /** Redirects what is still queued (the node left) and ends the sending thread. */
    void close() {
        closed = true;
        queue.add(CLOSE);
    }

    @Override
    public void run() {
        List<Outgoing> batch = new ArrayList<>(MAX_BATCH);
        try {
            while (true) {
                batch.add(queue.take());
                queue.drainTo(batch, MAX_BATCH - 1);
                if (batch.remove(CLOSE) || closed) {
                    batch.addAll(queue);
                    batch.remove(CLOSE);
                    batch.forEach(redirect);
                    return;
                }
                send(List.copyOf(batch));
                batch.clear();
            }
        } catch (InterruptedException e) {
            failAll(batch, new RemoteNodeException(node, "this node is shutting down"));
            failAll(new ArrayList<>(queue), new RemoteNodeException(node, "this node is shutting down"));
            Thread.currentThread().interrupt();
        }
    }

    private void send(List<Outgoing> batch) {
        request.reset().op(Wire.Op.DELIVER).integer(batch.size());
        for (Outgoing o : batch) {
            request.aid(o.receiver()).string(o.id().origin()).int64(o.id().counter())
                    .sharedMessage(o.message());
        }
        cluster.request(node, request.toBytes()).whenComplete((answer, failure) -> {
            if (failure != null) {
                // Unanswered: the node left (or timed out); the messages may or may not have been
                // admitted there. Sent again to where their receivers are now, the receiver drops
                // any it already has by their identity.
                batch.forEach(redirect);
                return;
            }
            try {
                Wire.Reader outcomes = new Wire.Reader(answer, 0, answer.length);
                for (Outgoing o : batch) {
                    SiebogException refusal = outcomes.outcome();
                    if (refusal == null) {
                        o.admitted().complete(null);
                    } else {
                        o.admitted().completeExceptionally(refusal);
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.SEVERE, "unreadable answer from " + node, e);
                failAll(batch, new RemoteNodeException(node, "its answer was unreadable: " + e));
            }
        });
    }

    private static void failAll(List<Outgoing> batch, SiebogException reason) {
        for (Outgoing o : batch) {
            if (o != CLOSE) {
                o.admitted().completeExceptionally(reason);
            }
        }
    }
}
