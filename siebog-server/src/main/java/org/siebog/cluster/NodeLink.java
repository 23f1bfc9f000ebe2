package org.siebog.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
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
 * The messages from this node to one other node, sent in batches over a connection of their own
 * ({@link LinkServer} says why not JGroups): one thread drains everything queued since its last send
 * into one request, so under load many messages share one network round trip, and at low load a
 * message leaves at once, written by the thread that posts it (no timer, no waiting to fill a batch,
 * no hand-off). One queue, one connection and one lock per destination keep messages in the order
 * they were posted, and the other node admits a connection's requests in order: per-agent ordering
 * holds across nodes. When a connection ends, the next one carries what it left unanswered first.
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
    /** Queued when the connection ended with requests unanswered: the sending thread connects again. */
    private static final Outgoing RECONNECT = new Outgoing(null, null, 0, 0);
    /**
     * A posting thread writes only while less than this is unanswered: then the socket has room for
     * what it writes ({@link LinkServer#SEND_BUFFER_BYTES}), even if the other node reads nothing
     * (paused, or cut off), and the posting agent never waits on it.
     */
    private static final long MAX_UNANSWERED_TO_WRITE_NOW = 16 << 10;
    private static final long RECONNECT_FIRST_PAUSE_MS = 50;
    private static final long RECONNECT_LAST_PAUSE_MS = 1_000;

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
    /**
     * Items handed to this link and not yet written: queued, or in the sending thread's hands. While
     * there are any, a posting thread queues behind them rather than write ({@link #send(Outgoing)}).
     */
    private final AtomicInteger unwritten = new AtomicInteger();
    /** Held by whoever writes requests: the sending thread, or a posting thread that found the link idle. */
    private final ReentrantLock writing = new ReentrantLock();
    /** Written with {@link #writing} held. */
    private final Wire.Writer request = new Wire.Writer();
    /** The connection to the other node; null until the first send, and a closed one until the sending thread connects again. */
    private volatile LinkConnection connection;
    /** When {@link #connection} was opened ({@link System#nanoTime()}). */
    private long connectedAt;
    private long lastId;
    /** Requests written and not yet answered, by id, in the order written: a new connection carries them again first. */
    private final ConcurrentSkipListMap<Long, Request> unanswered = new ConcurrentSkipListMap<>();
    private final AtomicLong unansweredBytes = new AtomicLong();
    private volatile boolean closed;
    /** Set once the sending thread has ended: a message queued later is redirected by the thread that queued it. */
    private volatile boolean finished;

    /** A request on its way: its messages, in order, and its size. */
    private record Request(List<Outgoing> batch, int bytes) {
    }

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

    /**
     * Writes {@code outgoing} on the posting thread when the link is idle (nothing queued before it,
     * connected, little unanswered), else queues it for the sending thread: redirected messages too,
     * they were admitted to a queue before. Writing here saves the hand-off to the sending thread
     * (about 20 µs of a round trip's 250, perf/README.md); the bound on what is unanswered keeps the
     * write from ever waiting on a full socket (a paused node), which would hold the posting agent.
     */
    void send(Outgoing outgoing) {
        if (closed) {
            if (outgoing.together() != null) {
                outgoing.together().forEach(redirect);
            } else {
                redirect.accept(outgoing);
            }
            return;
        }
        if (unwritten.get() == 0 && writing.tryLock()) {
            try {
                if (unwritten.get() == 0 && connection != null && connection.isOpen() && unansweredBytes.get() < MAX_UNANSWERED_TO_WRITE_NOW) {
                    List<Outgoing> batch = new ArrayList<>(1);
                    take(batch, outgoing);
                    writeOrFail(sendable(batch));
                    return;
                }
            } finally {
                writing.unlock();
            }
        }
        unwritten.incrementAndGet();
        queuedBytes.addAndGet(outgoing.bytes());
        queue.add(outgoing);
        if (finished) {
            redirectQueued(); // the link closed as this was queued, after its thread had redirected the rest
        }
    }

    /** Redirects whatever is in the queue now, each item once (by whoever polls it). */
    private void redirectQueued() {
        Outgoing item;
        while ((item = queue.poll()) != null) {
            if (!isMarker(item)) {
                List<Outgoing> one = new ArrayList<>();
                take(one, item);
                one.forEach(redirect);
            }
        }
    }

    /** Redirects what is still queued or unanswered (the node left) and ends the sending thread. */
    void close() {
        closed = true;
        queue.add(CLOSE);
        LinkConnection current = connection;
        if (current != null) {
            current.close(); // a write waiting on a paused node fails now
        }
    }

    private void closeConnection() {
        writing.lock();
        try {
            if (connection != null) {
                connection.close();
            }
        } finally {
            writing.unlock();
        }
    }

    private static boolean isMarker(Outgoing o) {
        return o == CLOSE || o == RECONNECT;
    }

    @Override
    public void run() {
        List<Outgoing> batch = new ArrayList<>(MAX_BATCH);
        try {
            while (true) {
                Outgoing first = queue.take();
                long bytes = take(batch, first);
                int items = isMarker(first) ? 0 : 1;
                Outgoing next;
                while (batch.size() < MAX_BATCH && bytes < MAX_BATCH_BYTES && (next = queue.poll()) != null) {
                    bytes += take(batch, next);
                    items += isMarker(next) ? 0 : 1;
                }
                queuedBytes.addAndGet(-bytes);
                boolean closing = batch.stream().anyMatch(o -> o == CLOSE); // by identity: the markers are equal records
                batch.removeIf(NodeLink::isMarker);
                if (closing || closed) {
                    batch.forEach(redirect);
                    closeConnection();
                    redirectUnanswered();
                    finished = true;
                    redirectQueued();
                    return;
                }
                writeFromQueue(batch);
                unwritten.addAndGet(-items);
                batch.clear();
            }
        } catch (InterruptedException e) {
            failAll(batch, new RemoteNodeException(node, "this node is shutting down"));
            List<Outgoing> queued = new ArrayList<>();
            queue.forEach(item -> take(queued, item));
            failAll(queued, new RemoteNodeException(node, "this node is shutting down"));
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Writes a batch taken from the queue, connecting first if the link has no connection (the first
     * batch, or the last connection ended): until the node is reached or leaves the view, the batch
     * waits, and everything posted after it queues behind it.
     */
    private void writeFromQueue(List<Outgoing> batch) throws InterruptedException {
        long pause = RECONNECT_FIRST_PAUSE_MS;
        while (true) {
            writing.lock();
            try {
                if (closed) {
                    batch.forEach(redirect);
                    return;
                }
                if (connection != null && connection.isOpen() || connect()) {
                    writeOrFail(sendable(batch));
                    return;
                }
            } finally {
                writing.unlock();
            }
            Thread.sleep(pause);
            pause = Math.min(2 * pause, RECONNECT_LAST_PAUSE_MS);
        }
    }

    /**
     * Opens a connection to the other node and writes on it, in order, what the last one left
     * unanswered: the other node may have admitted some of it, and drops those by their identities.
     * False when the node cannot be reached now.
     */
    private boolean connect() {
        if (connection != null) {
            connection.close();
            if (System.nanoTime() - connectedAt < TimeUnit.MILLISECONDS.toNanos(RECONNECT_FIRST_PAUSE_MS)) {
                return false; // the last one ended as soon as it was opened (the node does not count this one in its view yet): pause first
            }
        }
        try {
            connection = LinkConnection.open(cluster.connectLink(node), cluster.name(), new Listener(), cluster.threads(), node);
            connectedAt = System.nanoTime();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "could not connect the link to " + node + ": " + e);
            return false;
        }
        long last = lastId;
        Map.Entry<Long, Request> earlier;
        while ((earlier = unanswered.firstEntry()) != null && earlier.getKey() <= last) {
            if (unanswered.remove(earlier.getKey()) != null) {
                unansweredBytes.addAndGet(-earlier.getValue().bytes());
                writeOrFail(sendable(earlier.getValue().batch()));
            }
        }
        return true;
    }

    /** What the link's connections tell it. */
    private final class Listener implements LinkConnection.Listener {
        @Override
        public void answered(long id, byte[] answer) {
            Request done = unanswered.remove(id);
            if (done != null) {
                unansweredBytes.addAndGet(-done.bytes());
                admitted(done.batch(), answer);
            }
        }

        @Override
        public void ended(LinkConnection ended) {
            if (!closed && !unanswered.isEmpty()) {
                queue.add(RECONNECT); // the sending thread connects again and resends, even if nothing more is posted
            }
        }
    }

    /** The messages of requests nobody answered, to wherever their receivers are now: the node left. */
    private void redirectUnanswered() {
        Map.Entry<Long, Request> left;
        while ((left = unanswered.pollFirstEntry()) != null) {
            left.getValue().batch().forEach(redirect);
        }
        unansweredBytes.set(0);
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

    /**
     * {@link #write}, or the batch fails (its senders hear 503) if it cannot be written at all: the
     * link goes on, where a dead sending thread would silently hold every later message to that node.
     */
    private void writeOrFail(List<Outgoing> batch) {
        try {
            write(batch);
        } catch (RuntimeException | OutOfMemoryError e) {
            LOG.log(Level.WARNING, "could not send " + batch.size() + " messages to " + node, e);
            failAll(batch, new RemoteNodeException(node, "the messages could not be sent: " + e));
        }
    }

    /**
     * Writes one request with {@link #writing} held. It counts as unanswered from before it is
     * written: if the connection ends, the next one carries it again.
     */
    private void write(List<Outgoing> batch) {
        if (batch.isEmpty()) {
            return;
        }
        byte[] deliver = new NodeOp.Deliver(cluster.name(), cluster.lease().session(), batch.stream().map(Outgoing::delivery).toList())
                .write(request);
        long id = ++lastId;
        unanswered.put(id, new Request(batch, deliver.length));
        unansweredBytes.addAndGet(deliver.length);
        meters.batches().increment();
        meters.messages().increment(batch.size());
        meters.bytes().increment(deliver.length);
        try {
            connection.write(id, deliver);
        } catch (IOException e) {
            LOG.log(Level.FINE, "the link to " + node + " ended while writing: " + e);
            queue.add(RECONNECT);
        }
    }

    /** Completes each message's admission with its outcome in the other node's answer. */
    private void admitted(List<Outgoing> batch, byte[] answer) {
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
    }

    private static void failAll(List<Outgoing> batch, SiebogException reason) {
        for (Outgoing o : batch) {
            if (!isMarker(o)) {
                o.admitted().completeExceptionally(reason);
            }
        }
    }
}
