package org.siebog.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.siebog.agent.AID;
import org.siebog.message.ACLMessage;
import org.siebog.message.ACLMessageJson;
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

    record Outgoing(AID receiver, ACLMessage message, CompletableFuture<Void> admitted) {
    }

    private static final Outgoing CLOSE = new Outgoing(null, null, null);

    private final String node;
    private final ClusterNode cluster;
    private final BlockingQueue<Outgoing> queue = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    NodeLink(String node, ClusterNode cluster) {
        this.node = node;
        this.cluster = cluster;
    }

    /** Completes when the other node has admitted the message to the receiver's mailbox, or with its refusal. */
    CompletableFuture<Void> send(AID receiver, ACLMessage message) {
        CompletableFuture<Void> admitted = new CompletableFuture<>();
        if (closed) {
            admitted.completeExceptionally(new RemoteNodeException(node, "it left the cluster"));
        } else {
            queue.add(new Outgoing(receiver, message, admitted));
        }
        return admitted;
    }

    /** Fails what is still queued (the node left) and ends the sending thread. */
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
                    failAll(batch);
                    failAll(new ArrayList<>(queue));
                    return;
                }
                send(List.copyOf(batch));
                batch.clear();
            }
        } catch (InterruptedException e) {
            failAll(batch);
            failAll(new ArrayList<>(queue));
            Thread.currentThread().interrupt();
        }
    }

    private void send(List<Outgoing> batch) {
        Wire.Writer request = new Wire.Writer().op(Wire.Op.DELIVER).integer(batch.size());
        for (Outgoing o : batch) {
            request.string(o.receiver().toString()).string(ACLMessageJson.write(o.message()));
        }
        cluster.request(node, request.toBytes()).whenComplete((answer, failure) -> {
            if (failure != null) {
                failAll(batch, failure instanceof SiebogException se ? se : new RemoteNodeException(node, failure.toString()));
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

    private void failAll(List<Outgoing> batch) {
        failAll(batch, new RemoteNodeException(node, "it left the cluster"));
    }

    private static void failAll(List<Outgoing> batch, SiebogException reason) {
        for (Outgoing o : batch) {
            if (o != CLOSE) {
                o.admitted().completeExceptionally(reason);
            }
        }
    }
}
