package org.siebog.replication;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.NodeLease;
import org.siebog.cluster.Wire;
import org.siebog.directory.StringCaches;
import org.siebog.message.MessageId;
import org.siebog.platform.Setting;

/**
 * Writes what failover needs into two distributed caches with {@code siebog.replication.copies}
 * owners each (2 unless set: one node's death loses none of it; 3: two at once lose none): every message admitted to a stateful agent ({@code inbox}) and the
 * agent's {@link AgentRecord} after it has handled some ({@code agent-state}).
 *
 * <p>The inbox is a log of segments: one writer thread takes everything admitted since its last
 * write and stores it as <em>one</em> entry ({@link InboxSegment}, key {@code node/boot#n}), so a
 * batch of hundreds of messages costs one cache write and, once every message in it is covered by
 * its agent's saved state, one removal, where an entry per message cost two cache operations per
 * message on both nodes. Inbox writes complete in the order they were queued. States have a writer
 * thread of their own that takes every record queued since its last write into one {@code putAll}.
 *
 * <p>Segments are found by key, never by scanning: an agent's record names the writers and first
 * segment numbers of its unsaved messages ({@link LogRange}), and each writer keeps a
 * {@link WriterManifest} saying which numbers can exist ({@link LogReader}).
 */
@ApplicationScoped
public class ReplicationLog {

    private static final Logger LOG = Logger.getLogger(ReplicationLog.class.getName());
    private static final int MAX_BATCH = 1024;
    /**
     * A segment is written whole into one buffer, then marshalled and sent by Infinispan: 1,024
     * messages of 64 KB made 64 MB segments whose copies ran a 1 GB node out of memory; a
     * segment of a megabyte still holds hundreds of ordinary messages.
     */
    private static final long MAX_SEGMENT_BYTES = 1L << 20;
    /**
     * What this node's inbox log may hold ({@code siebog.replication.max-log-bytes}, default an
     * eighth of the heap): the messages waiting for the writer (estimated,
     * {@link ACLMessage#estimatedBytes()}) and the segments stored and not yet dropped (their
     * size). A segment stays until <em>every</em> message in it is covered by its agent's saved
     * state, so one agent that has not saved keeps a whole segment; counting segments, not
     * messages, is what bounds the memory. Their copies on the other owner count against that
     * node's heap, not this bound (an eighth here may cost another eighth there: with a quarter, two
     * nodes under 64 KB messages kept 80% of their old generation). Beyond it new
     * messages to stateful agents are refused (503); from a quarter of it on, agents save sooner
     * than their save interval asks, the sooner the fuller it is ({@link #saveIntervalShare()}).
     */
    static final long MAX_LOG_BYTES = Setting.MAX_LOG_BYTES.longValue();
    /** Whether the log is refusing, so that a full log is logged once when it fills and once when it has room again. */
    private final AtomicBoolean full = new AtomicBoolean();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicLong segmentBytes = new AtomicLong();
    private static final int WRITE_ATTEMPTS = 4;

    /** Segments and manifests as the bytes {@link SegmentCodec} and {@link WriterManifest} write. */
    private AdvancedCache<String, byte[]> inbox;
    /** Records as the bytes {@link AgentRecord#encode()} writes: stored and replicated as they are, never marshalled field by field. */
    private AdvancedCache<String, byte[]> states;

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/inbox")
    void setInbox(Cache<String, byte[]> injected) {
        inbox = StringCaches.raw(injected);
    }

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/agent-state")
    void setStates(Cache<String, byte[]> injected) {
        states = StringCaches.raw(injected);
    }

    @Resource
    ManagedThreadFactory threads;

    /** A record to save; once it is stored, the messages it covers are released from their segments. */
    /** {@code epoch}: the node's {@link NodeLease#epoch()} when the save was asked for. */
    private record StateWrite(AID aid, AgentRecord record, List<CompletableFuture<InboxSegment>> covered,
            CompletableFuture<Boolean> done, int epoch) {
    }

    /**
     * This node as a writer of the log, {@code node/boot}: no other node, nor an earlier boot of this
     * one, is the same; nor this boot before it last rejoined ({@link #rejoined()}).
     */
    private volatile String writer = newWriter();
    /** The writer the inbox writer thread last wrote a segment as (its own field). */
    private String writingAs = writer;
    /** The highest segment number taken; written by the inbox writer only, read by journals. */
    private volatile long segments;
    /** The highest segment number this writer's stored manifest allows. */
    private long reserved;
    /** The numbers of this writer's segments that are stored and not yet dropped, for its manifest. */
    private final NavigableSet<Long> liveSegments = new ConcurrentSkipListSet<>();

    String writer() {
        return writer;
    }

    private static String newWriter() {
        return System.getProperty("jboss.node.name", "node1") + "/" + UUID.randomUUID();
    }

    /**
     * This node rejoins the cluster empty (it was cut off, or paused): it writes as a new writer from
     * now on. While it was out, the others took its writer for a departed node's and may have dropped
     * its manifest with its last segment (InboxJanitor); what it logged under that writer is theirs to
     * deal with, as an earlier boot's. Called while it admits nothing.
     */
    public void rejoined() {
        writer = newWriter();
    }

    /**
     * A lower bound on the number of any segment written from now on: a message appended after
     * this call is stored in a segment numbered at least this.
     */
    long nextSegment() {
        return segments + 1;
    }

    /** What the log holds now: messages waiting for the writer and stored segments. */
    long heldBytes() {
        return queuedBytes.get() + segmentBytes.get();
    }

    /** Whether a message of {@code bytes} may still be admitted to a stateful agent here. */
    boolean hasRoom(long bytes) {
        long held = heldBytes();
        boolean room = held + bytes <= MAX_LOG_BYTES;
        if (room != !full.get() && full.compareAndSet(room, !room)) {
            if (room) {
                LOG.info(() -> "the inbox log has room again (" + held + " bytes held): messages to stateful agents are admitted");
            } else {
                LOG.warning(() -> "the inbox log is full (" + held + " of " + MAX_LOG_BYTES + " bytes, siebog.replication.max-log-bytes):"
                        + " messages to stateful agents are refused (503) until their saves drop segments");
            }
        }
        return room;
    }

    /**
     * How much of its usual save interval an agent waits now: all of it while the log holds at
     * most a quarter of its bound, then less the fuller the log is, none at the bound. Saving sooner
     * drops segments sooner, which is what makes room. Not a step: at full load with small messages
     * (Sender/Receiver, 1000 pairs on one 1 GB node) the segments held in the ordinary course (a
     * second's interval and the writer's lag) peaked at 29 of the 32 MB a quarter is, and with
     * "save at the next message from a quarter on" every agent saved at every message whenever the
     * log crossed it: a fifth of that run's throughput (perf/HISTORY.md, "Security on").
     */
    double saveIntervalShare() {
        return saveIntervalShare(heldBytes(), MAX_LOG_BYTES);
    }

    static double saveIntervalShare(long held, long max) {
        long from = max / 4;
        if (held <= from) {
            return 1;
        }
        return Math.max(0, (double) (max - held) / (max - from));
    }

    /** A key of this boot's segments or manifest. */
    boolean ownKey(String key) {
        return LogKeys.writerOf(key).equals(writer);
    }

    private final WriterQueue<LoggedMessage> inboxWrites = new WriterQueue<>();
    private final WriterQueue<StateWrite> stateWrites = new WriterQueue<>();
    private volatile boolean running = true;
    private final List<Thread> writers = new ArrayList<>();

    @Inject
    MeterRegistry meters;

    @Inject
    ClusterNode cluster;

    @PostConstruct
    void startWriters() {
        String held = "The inbox log: messages admitted and not yet written (held=queued, its lag), segments written and"
                + " not yet covered by their agents' saves (held=stored)";
        Gauge.builder("siebog.replication.log", queuedBytes, AtomicLong::get).baseUnit("bytes").tag("held", "queued")
                .description(held).register(meters);
        Gauge.builder("siebog.replication.log", segmentBytes, AtomicLong::get).baseUnit("bytes").tag("held", "stored")
                .description(held).register(meters);
        writers.add(threads.newThread(this::writeInbox));
        writers.add(threads.newThread(this::writeStates));
        writers.get(0).setName("siebog-inbox-writer");
        writers.get(1).setName("siebog-state-writer");
        writers.forEach(Thread::start);
    }

    @PreDestroy
    void stopWriters() {
        running = false;
        writers.forEach(Thread::interrupt);
    }

    /** Logs an admitted message; its {@code written} completes once it is held by two nodes. */
    LoggedMessage append(AID aid, long incarnation, long seq, MessageId id, ACLMessage message) {
        // The bound is read before the message is queued: the writer numbers its batch after taking it.
        LoggedMessage logged = new LoggedMessage(aid, incarnation, seq, id, message, nextSegment(), new CompletableFuture<>());
        queuedBytes.addAndGet(logged.bytes());
        inboxWrites.add(logged);
        return logged;
    }

    /**
     * Saves the record (later records of one agent overwrite earlier ones), then releases the
     * messages it covers; completes once the write is over, with whether it succeeded.
     */
    CompletableFuture<Boolean> save(AID aid, AgentRecord record, List<CompletableFuture<InboxSegment>> covered) {
        StateWrite write = new StateWrite(aid, record, covered, new CompletableFuture<>(), cluster.lease().epoch());
        stateWrites.add(write);
        return write.done();
    }

    /** Saves the record now (an agent that has just started), returning once it is replicated. */
    void saveNow(AID aid, AgentRecord record) {
        states.withFlags(Flag.IGNORE_RETURN_VALUES).put(aid.toString(), record.encode());
    }

    public Optional<AgentRecord> load(AID aid) {
        byte[] encoded = states.get(aid.toString());
        return encoded == null ? Optional.empty() : Optional.of(AgentRecord.decode(encoded));
    }

    /** A reader for the takeovers of one view change: each reads its own agent's segments, by key. */
    public LogReader reader() {
        return new LogReader(keys -> inbox.getAll(keys));
    }

    /** Messages of agents that moved away, kept in this node's log until their records elsewhere cover them. */
    private record LeftBehind(AID aid, long incarnation, List<LoggedMessage> messages) {
    }

    private final Queue<LeftBehind> leftBehind = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean checkScheduled = new AtomicBoolean();
    /** How often the messages of agents that moved away are checked against their records. */
    private static final long LEFT_BEHIND_CHECK_MS = 1_000;

    @Resource
    ManagedScheduledExecutorService timer;

    /**
     * Keeps {@code messages} (logged here for an agent that has moved to another node) until the
     * agent's record covers them: its new host names this node's segments in the record it carries
     * on from, and stops naming them once a save of its own covers what it replayed from them.
     * Released then, or when the agent is gone (no record, or one of another incarnation). Checked
     * every second; at most one entry per agent that moved away with messages queued.
     */
    void releaseWhenCovered(AID aid, long incarnation, List<LoggedMessage> messages) {
        if (!messages.isEmpty()) {
            leftBehind.add(new LeftBehind(aid, incarnation, messages));
            checkLeftBehindSoon();
        }
    }

    private void checkLeftBehindSoon() {
        if (checkScheduled.compareAndSet(false, true)) {
            timer.schedule(this::releaseCovered, LEFT_BEHIND_CHECK_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void releaseCovered() {
        checkScheduled.set(false);
        for (Iterator<LeftBehind> it = leftBehind.iterator(); it.hasNext(); ) {
            LeftBehind left = it.next();
            try {
                Optional<AgentRecord> record = load(left.aid());
                boolean gone = record.isEmpty() || record.get().incarnation() != left.incarnation();
                long covered = gone ? Long.MAX_VALUE : record.get().handledSeq();
                if (left.messages().get(left.messages().size() - 1).seq() <= covered) {
                    left.messages().forEach(m -> m.written().thenAccept(this::release));
                    it.remove();
                }
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "could not read the record of " + left.aid() + "; its moved messages are checked again", e);
            }
        }
        if (!leftBehind.isEmpty()) {
            checkLeftBehindSoon();
        }
    }

    /** Forgets a stopped agent's state; its journal releases its logged messages. */
    void forget(AID aid) {
        states.withFlags(Flag.IGNORE_RETURN_VALUES).remove(aid.toString());
    }

    /** A segment whose messages are all covered by saved states (or belong to stopped agents) is dropped. */
    void release(InboxSegment segment) {
        if (segment.release()) {
            segmentBytes.addAndGet(-segment.bytes());
            liveSegments.remove(segment.number());
            remove(segment.key());
        }
    }

    void remove(String segmentKey) {
        inbox.withFlags(Flag.IGNORE_RETURN_VALUES).removeAsync(segmentKey).exceptionally(e -> {
            LOG.log(Level.FINE, "could not drop the handled inbox segment " + segmentKey, e);
            return null;
        });
    }

    /** Every segment and manifest in the log, by key (for {@link InboxJanitor}). */
    Map<String, byte[]> allEntries() {
        return new HashMap<>(inbox);
    }

    private void writeInbox() {
        List<LoggedMessage> taken = new ArrayList<>(MAX_BATCH);
        Wire.Writer encoder = new Wire.Writer();
        while (running) {
            try {
                inboxWrites.takeInto(taken, MAX_BATCH); // all that waits: a batch is cut into segments by bytes below
                for (int from = 0, to; from < taken.size(); from = to) {
                    long bytes = taken.get(from).bytes();
                    for (to = from + 1; to < taken.size() && bytes + taken.get(to).bytes() <= MAX_SEGMENT_BYTES; to++) {
                        bytes += taken.get(to).bytes();
                    }
                    writeSegment(taken.subList(from, to), bytes, encoder);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            taken.clear();
        }
    }

    /** Writes one segment of at most {@link #MAX_SEGMENT_BYTES} (or one larger message) and completes its messages. */
    private void writeSegment(List<LoggedMessage> batch, long bytes, Wire.Writer encoder) throws InterruptedException {
        try {
            queuedBytes.addAndGet(-bytes);
            byte[] encoded = SegmentCodec.encode(batch, encoder);
            if (!writingAs.equals(writer)) {
                // A new writer (the node rejoined): its first segment comes with a manifest of its own.
                writingAs = writer;
                reserved = 0;
                liveSegments.clear();
            }
            InboxSegment segment = new InboxSegment(writingAs, ++segments, batch.size(), encoded.length);
            if (segment.number() > reserved) {
                reserveFrom(segment.number());
            }
            // Listed before the write and kept if it fails: a write that timed out may still have
            // been stored, and a number listed for nothing costs a reader one missing key.
            liveSegments.add(segment.number());
            NodeLease lease = cluster.lease();
            int epoch = lease.epoch();
            store(segment.key(), encoded);
            segmentBytes.addAndGet(segment.bytes()); // given back when release() drops it
            if (!lease.holds() || lease.epoch() != epoch) {
                // A write under way when a cut began waits until the view drops the owners on the other
                // side, then completes on this side's alone: the majority, taking the agents over, never
                // reads it, and a merge drops this side's copy. The same view took this node's lease, so a
                // write that ends without it may not survive: its senders hear 503, and a sender that posts
                // again under its key through another node has it handled there once (perf/chaos, a 2|3 cut).
                SiebogException refusal = new RemoteNodeException("node " + cluster.name() + " lost touch with the cluster while it"
                        + " logged the message: it may be handled or not; post it again under its Idempotency-Key to have it handled once"
                        + (lease.holds() ? "" : ". " + lease.refusal().getMessage()));
                // Kept and released as usual (it may be all the log has of them), only not acknowledged.
                segment.unacknowledged(refusal);
            }
            batch.forEach(m -> m.written().complete(segment));
        } catch (RuntimeException | OutOfMemoryError e) {
            // Even out of memory the writer goes on: its messages fail (their senders hear 503),
            // where a dead writer would hold up every stateful agent of the node for good.
            LOG.log(Level.WARNING, "could not replicate " + batch.size() + " admitted messages", e);
            batch.forEach(m -> m.written().completeExceptionally(e));
        }
    }

    /**
     * Writes a segment, trying again a few times: a write that fails during a view change usually
     * succeeds a moment later, and until it does, the senders of its messages wait rather than
     * being told their messages may not survive a crash. Later segments wait too, so the log
     * stays in admission order.
     */
    private void store(String key, byte[] segment) throws InterruptedException {
        for (int attempt = 1;; attempt++) {
            try {
                inbox.withFlags(Flag.IGNORE_RETURN_VALUES).put(key, segment);
                return;
            } catch (RuntimeException e) {
                if (attempt == WRITE_ATTEMPTS || !running) {
                    throw e;
                }
                LOG.log(Level.INFO, "writing inbox segment {0} failed ({1}); trying again", new Object[] {key, e.toString()});
                Thread.sleep(100L << attempt);
            }
        }
    }

    /**
     * Stores a manifest that allows segments {@code next} to {@code next + RESERVE - 1}, before the
     * first of them: a reader then finds every segment this writer stores (see {@link WriterManifest}).
     */
    private void reserveFrom(long next) {
        WriterManifest manifest = WriterManifest.before(next, liveSegments);
        inbox.withFlags(Flag.IGNORE_RETURN_VALUES).put(LogKeys.manifest(writingAs), manifest.encode());
        reserved = manifest.reserved();
    }

    private void writeStates() {
        List<StateWrite> batch = new ArrayList<>(MAX_BATCH);
        while (running) {
            boolean stored = false;
            try {
                stateWrites.takeInto(batch, MAX_BATCH);
                NodeLease lease = cluster.lease();
                if (!lease.holds()) {
                    // Fenced: the agent may be running elsewhere already, and its record is the new host's now.
                    batch.removeIf(w -> w.done().complete(false));
                }
                int epoch = lease.epoch();
                batch.removeIf(w -> w.epoch() != epoch && w.done().complete(false)); // asked for before this node lost touch
                Map<String, byte[]> latest = new HashMap<>();
                for (StateWrite w : batch) {
                    latest.put(w.aid().toString(), w.record().encode());
                }
                states.withFlags(Flag.IGNORE_RETURN_VALUES).putAll(latest);
                // Only now are these messages covered: before, a crash would replay them from the log.
                for (StateWrite w : batch) {
                    w.covered().forEach(written -> written.thenAccept(this::release));
                }
                stored = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | OutOfMemoryError e) {
                // As the inbox writer: the saves fail (and are carried over), the writer goes on.
                LOG.log(Level.WARNING, "could not replicate the state of " + batch.size() + " agents", e);
            }
            boolean outcome = stored;
            batch.forEach(w -> w.done().complete(outcome));
            batch.clear();
        }
    }
}
