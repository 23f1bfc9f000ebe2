package org.siebog.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.message.MessageId;
import org.siebog.platform.Setting;

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
    /**
     * A batch is one request, written whole into one buffer and copied by JGroups: 512 messages of
     * 64 KB made 32 MB requests that, a few at a time, ran a 1 GB node out of memory; a megabyte
     * still carries hundreds of ordinary messages in one round trip.
     */
    private static final long MAX_BATCH_BYTES = 1L << 20;
    /** What may wait for this link, estimated ({@link ACLMessage#estimatedBytes()}); more is refused (503). */
    private static final long MAX_QUEUED_BYTES = Setting.MAX_LINK_BYTES.longValue();

    /**
     * {@code bytes}: the message's estimated size, computed once for the link's bound and its
     * batches. {@code together}: for one message to several receivers, the deliveries that go in one
     * batch, so the message is written once (this item then carries no delivery of its own).
     * {@code epoch}: this node's {@link NodeLease#epoch()} when the message was handed to the link.
     */
    record Outgoing(NodeOp.Delivery delivery, CompletableFuture<Void> admitted, long bytes, List<Outgoing> together, int epoch) {

        Outgoing(NodeOp.Delivery delivery, CompletableFuture<Void> admitted, long bytes, int epoch) {
            this(delivery, admitted, bytes, null, epoch);
        }

        AID receiver() {
            return delivery.receiver();
        }

        /**
         * True while this message may leave this node: the node holds its lease and has not lost
         * touch with the cluster since it took the message ({@code currentEpoch}). A node that lost
         * touch sends it nowhere, then or later: whatever it knew of the message may be gone (the key
         * its caller posted it under was stored on this side of a split only, and the merge drops this
         * side's copies), so a copy arriving after the caller posted it again through another node
         * would be handled twice (perf/chaos, a 2|3 cut). Its caller hears {@link #lostTouch}: 503.
         */
        boolean mayLeave(boolean holds, int currentEpoch) {
            return holds && epoch == currentEpoch;
        }

        /** Why it may not leave ({@link #mayLeave}). */
        SiebogException lostTouch(ClusterNode from, String toward) {
            NodeLease lease = from.lease();
            return new RemoteNodeException("node " + from.name() + " lost touch with the cluster before " + toward + " admitted the message:"
                    + " it sends it no further, and it may have arrived or not; post it again under its Idempotency-Key to have it handled once"
                    + (lease.holds() ? "" : ". " + lease.refusal().getMessage()));
        }
    }

    /** What one more receiver of a message adds to a request: its AID and the message's identity for it. */
    private static final long RECEIVER_BYTES = 64;

    private static final Outgoing CLOSE = new Outgoing(null, null, 0, 0);

    /** What every link of the node counts: {@code siebog.link.*} (docs/admin.md, "Metrics"). */
    record Meters(Counter batches, Counter messages, Counter bytes) {

        static Meters of(MeterRegistry registry) {
            return new Meters(
                    Counter.builder("siebog.link.batches").description("Requests that carried messages to other nodes").register(registry),
                    Counter.builder("siebog.link.messages").description("Messages sent to other nodes").register(registry),
                    Counter.builder("siebog.link.bytes").baseUnit("bytes")
                            .description("Bytes of the requests that carried messages to other nodes").register(registry));
        }
    }

    private final String node;
    private final ClusterNode cluster;
    /** Takes the messages this link could not get admitted because the node left, to try where their receivers are now. */
    private final Consumer<Outgoing> redirect;
    private final Meters meters;
    private final BlockingQueue<Outgoing> queue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    /** Only the sending thread writes requests. */
    private final Wire.Writer request = new Wire.Writer();
    private volatile boolean closed;

    NodeLink(String node, ClusterNode cluster, Consumer<Outgoing> redirect, Meters meters) {
        this.node = node;
        this.cluster = cluster;
        this.redirect = redirect;
        this.meters = meters;
    }

    /** Estimated bytes of the messages waiting for this link. */
    long queuedBytes() {
        return queuedBytes.get();
    }

    /**
     * Completes when the other node has admitted the message to the receiver's mailbox, or with its
     * refusal; at once with a 503 when the messages waiting for this link are at their limit (the
     * other node takes them more slowly than they come).
     */
    CompletableFuture<Void> send(AID receiver, MessageId id, ACLMessage message) {
        CompletableFuture<Void> admitted = new CompletableFuture<>();
        long bytes = message.estimatedBytes();
        if (queuedBytes.get() + bytes > MAX_QUEUED_BYTES) {
            admitted.completeExceptionally(new RemoteNodeException("the messages waiting to go to node " + node + " are at their limit ("
                    + MAX_QUEUED_BYTES + " bytes, siebog.cluster.max-link-bytes); nothing was sent, try again shortly"));
            return admitted;
        }
        send(new Outgoing(new NodeOp.Delivery(receiver, id, message), admitted, bytes, cluster.lease().epoch()));
        return admitted;
    }

    /**
     * One message to several receivers on the other node: queued as one item, so all of them go in
     * one batch and the message is written once ({@link Wire.Writer#sharedMessage}). Returns each
     * receiver's admission, in order; at the link's bound, a 503 for all of them at once.
     */
    List<CompletableFuture<Void>> sendAll(List<NodeOp.Delivery> deliveries) {
        long bytes = deliveries.get(0).message().estimatedBytes() + RECEIVER_BYTES * (deliveries.size() - 1);
        if (queuedBytes.get() + bytes > MAX_QUEUED_BYTES) {
            CompletableFuture<Void> full = CompletableFuture.failedFuture(new RemoteNodeException("the messages waiting to go to node " + node
                    + " are at their limit (" + MAX_QUEUED_BYTES + " bytes, siebog.cluster.max-link-bytes); nothing was sent, try again shortly"));
            return Collections.nCopies(deliveries.size(), full);
        }
        List<Outgoing> together = new ArrayList<>(deliveries.size());
        long first = bytes - RECEIVER_BYTES * (deliveries.size() - 1);
        int epoch = cluster.lease().epoch();
        for (NodeOp.Delivery delivery : deliveries) {
            together.add(new Outgoing(delivery, new CompletableFuture<>(), together.isEmpty() ? first : RECEIVER_BYTES, epoch));
        }
        send(new Outgoing(null, null, bytes, together, epoch));
        return together.stream().map(Outgoing::admitted).toList();
    }

    /** Queues whatever comes, redirected messages too: they were admitted to a queue before. */
    void send(Outgoing outgoing) {
        if (closed) {
            if (outgoing.together() != null) {
                outgoing.together().forEach(redirect);
            } else {
                redirect.accept(outgoing);
            }
        } else {
            queuedBytes.addAndGet(outgoing.bytes());
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
                long bytes = take(batch, queue.take());
                Outgoing next;
                while (batch.size() < MAX_BATCH && bytes < MAX_BATCH_BYTES && (next = queue.poll()) != null) {
                    bytes += take(batch, next);
                }
                queuedBytes.addAndGet(-bytes);
                if (batch.remove(CLOSE) || closed) {
                    queue.forEach(item -> take(batch, item));
                    batch.remove(CLOSE);
                    batch.forEach(redirect);
                    return;
                }
                List<Outgoing> sending = sendable(batch);
                batch.clear();
                if (sending.isEmpty()) {
                    continue;
                }
                try {
                    send(sending);
                } catch (RuntimeException | OutOfMemoryError e) {
                    // The batch fails (its senders hear 503); the link goes on, where a dead thread
                    // would silently hold every later message to that node.
                    LOG.log(Level.WARNING, "could not send " + sending.size() + " messages to " + node, e);
                    failAll(sending, new RemoteNodeException(node, "the messages could not be sent: " + e));
                }
            }
        } catch (InterruptedException e) {
            failAll(batch, new RemoteNodeException(node, "this node is shutting down"));
            List<Outgoing> queued = new ArrayList<>();
            queue.forEach(item -> take(queued, item));
            failAll(queued, new RemoteNodeException(node, "this node is shutting down"));
            Thread.currentThread().interrupt();
        }
    }

    /** The batch's messages that may still leave this node ({@link Outgoing#mayLeave}); the others fail with the reason. */
    private List<Outgoing> sendable(List<Outgoing> batch) {
        NodeLease lease = cluster.lease();
        boolean holds = lease.holds(); // once a batch, not once a message: it reads the clock
        int epoch = lease.epoch();
        List<Outgoing> sendable = new ArrayList<>(batch.size());
        for (Outgoing o : batch) {
            if (o.mayLeave(holds, epoch)) {
                sendable.add(o);
            } else {
                o.admitted().completeExceptionally(o.lostTouch(cluster, "node " + node));
            }
        }
        return sendable;
    }

    /** Adds {@code item} to the batch (a message to several receivers, all of them); its bytes. */
    private static long take(List<Outgoing> batch, Outgoing item) {
        if (item.together() == null) {
            batch.add(item);
        } else {
            batch.addAll(item.together());
        }
        return item.bytes();
    }

    private void send(List<Outgoing> batch) {
        byte[] deliver = new NodeOp.Deliver(cluster.name(), cluster.lease().session(), batch.stream().map(Outgoing::delivery).toList())
                .write(request);
        meters.batches().increment();
        meters.messages().increment(batch.size());
        meters.bytes().increment(deliver.length);
        cluster.request(node, deliver).whenComplete((answer, failure) -> {
            if (failure != null) {
                // Unanswered: the node left (or timed out); the messages may or may not have been
                // admitted there. Sent again to where their receivers are now, the receiver drops
                // any it already has by their identity.
                batch.forEach(redirect);
                return;
            }
            try {
                Wire.Reader outcomes = NodeAnswer.reader(answer);
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
