package org.siebog.replication;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.delivery.Envelope;
import org.siebog.delivery.Journal;
import org.siebog.delivery.Mailbox;
import org.siebog.delivery.Origin;
import org.siebog.delivery.ReceiverCounters;
import org.siebog.delivery.ReplyInboxes;
import org.siebog.message.MessageId;
import org.siebog.platform.Setting;

/**
 * The replication of one stateful agent on the node that runs it.
 *
 * <p>Admission: a message's identity is checked against those admitted before (a duplicate is
 * dropped, answered as admitted), it gets the next inbox position and reaches the mailbox, and its
 * admission is acknowledged once it is logged on two nodes (until then its sender keeps it). After
 * each run of messages the agent's state is saved with the position it has handled up to, once
 * every message it sent meanwhile has been admitted by its receiver: so after a crash, either a
 * sent message is held by its receiver, or the handler that sent it runs again from the saved
 * state and sends it again under the same identity, and the receiver drops the copy.
 *
 * <p>A saved record holds the identities of the messages its state has <em>handled</em>, not of
 * all those admitted: one admitted after the handled position is either in the log (and replayed,
 * its identity with it) or was never acknowledged, and then its sender sends it again after the
 * crash, which must not be dropped as a duplicate.
 */
public final class AgentJournal implements Journal, Origin {

    private static final Logger LOG = Logger.getLogger(AgentJournal.class.getName());

    private final AID aid;
    /** The origin of this agent's messages: its AID's string form, made once (not at every send). */
    private final String origin;
    private final Agent agent;
    private final ReplicationLog log;

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    /**
     * The admissions not yet acknowledged (their messages being logged), by identity: a duplicate of one
     * is answered as it is ({@link #duplicateOf}). As many as the messages being logged, which the log bounds.
     */
    private final Map<MessageId, CompletableFuture<Void>> unacknowledged = new ConcurrentHashMap<>();
    /** Identities admitted here (and replayed into the mailbox): what a live duplicate is checked against. */
    private final OriginWindows admitted;
    /** Identities of the messages up to {@code savedUpTo}: what a saved record holds. */
    private final OriginWindows handled;
    /** This agent's counters per receiver, bounded; saved with every record. */
    private final ReceiverCounters sent;
    private final long incarnation;
    private long nextSeq;
    private long savedUpTo;
    /** Messages logged (or being logged) and not yet covered by a save, in position order. */
    private final ArrayDeque<LoggedMessage> uncovered = new ArrayDeque<>();
    /** The log entries covered by a save that failed, to release with the next one. */
    private final List<CompletableFuture<InboxSegment>> unreleased = new ArrayList<>();
    /** A resumed agent's logged messages that it had not handled and no save has covered yet, in position order. */
    private final ArrayDeque<Envelope> replayedUnsaved = new ArrayDeque<>();
    /** The record a resumed agent carries on from, until {@link #moved()} has pointed it here. */
    private AgentRecord resumedFrom;
    /**
     * Where the replayed messages are logged (the earlier hosts' ranges, ending at the last one):
     * named in every record until one covers them, as this node does not log them again.
     */
    private List<LogRange> inherited = List.of();
    private long replayedUpTo;
    private List<CompletableFuture<Void>> unadmittedOutputs = new ArrayList<>();
    /** The previous save, done once written: saves of one agent reach the cache in order, one at a time. */
    private volatile CompletableFuture<?> lastSave = CompletableFuture.completedFuture(null);

    /**
     * How often a busy agent's state is saved at most ({@code siebog.replication.save-interval-ms},
     * default 1000). A save costs a serialisation of the agent's fields and a cache write, so saves
     * per second are capped at the number of agents, however many messages they handle; what an
     * agent handled since its last save is replayed from the inbox log after a crash, so a longer
     * interval only means more to replay (at most a second's worth), never a lost message.
     */
    static final long SAVE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(Setting.SAVE_INTERVAL_MS.longValue());

    /**
     * An agent holding more than this of messages not yet covered by a save saves at its next
     * message rather than at the interval ({@code siebog.replication.save-after-bytes}, default
     * 1 MiB): a save is small next to large messages, and it releases them from memory and the log.
     */
    static final long SAVE_AFTER_BYTES = Setting.SAVE_AFTER_BYTES.longValue();

    /** Of the messages in {@code uncovered}, estimated (written under the journal's lock, read on the lane). */
    private volatile long uncoveredBytes;

    private Mailbox mailbox;
    private ScheduledExecutorService timer;
    private long lastSaveNanos;
    private boolean saveScheduled;
    /** A save is due once the one in flight is written. */
    private boolean waitingForWriter;

    @Override
    public void attach(Mailbox hostMailbox, ScheduledExecutorService saveTimer) {
        this.mailbox = hostMailbox;
        this.timer = saveTimer;
    }

    private AgentJournal(AID aid, Agent agent, ReplicationLog log, AgentRecord record, long nextSeq) {
        this.aid = aid;
        this.origin = aid.toString();
        this.incarnation = record.incarnation();
        this.agent = agent;
        this.log = log;
        this.admitted = new OriginWindows().restore(record.handled());
        this.handled = new OriginWindows().restore(record.handled());
        this.sent = ReceiverCounters.restored(record.sent());
        this.savedUpTo = record.handledSeq();
        this.nextSeq = nextSeq;
    }

    /** For an agent about to start: messages admitted meanwhile are logged and wait for it. */
    public static AgentJournal starting(AID aid, Agent agent, ReplicationLog log) {
        return new AgentJournal(aid, agent, log, new AgentRecord(new byte[0], 0, Map.of(), ReceiverCounters.Saved.NONE,
                ThreadLocalRandom.current().nextLong(), List.of()), 0);
    }

    /** Saves the state {@code onStart} left, before the agent takes its first message; returns once replicated. */
    public void started() {
        AgentRecord first;
        synchronized (this) {
            first = new AgentRecord(agent.saveState(), 0, Map.of(), sent.saved(), incarnation, rangesAfter(0));
        }
        log.saveNow(aid, first);
    }

    /**
     * For an agent taken over from a dead node: its saved record, and the logged messages it had
     * not handled ({@link LogReader#pending}), whose identities count as admitted. Call
     * {@link #moved()} before the agent can take a message here.
     */
    public static AgentJournal resumed(AID aid, Agent agent, ReplicationLog log, AgentRecord record, List<Envelope> pending) {
        long last = pending.isEmpty() ? record.handledSeq() : pending.get(pending.size() - 1).seq();
        AgentJournal journal = new AgentJournal(aid, agent, log, record, last);
        for (Envelope e : pending) {
            if (e.id().isUnnumbered()) {
                continue;
            }
            journal.admitted.add(e.id());
        }
        journal.replayedUnsaved.addAll(pending);
        journal.resumedFrom = record;
        journal.replayedUpTo = last;
        journal.inherited = record.ranges().stream().map(r -> r.endingAt(last)).toList();
        return journal;
    }

    /**
     * Stores the record the agent resumes from again, now naming this node's log as well, and
     * returns once that is replicated. Until then nothing may be admitted here: were this node to
     * die next, the record would not lead the next takeover to what it had logged.
     */
    public void moved() {
        AgentRecord here;
        synchronized (this) {
            here = resumedFrom.withRanges(rangesAfter(resumedFrom.handledSeq()));
        }
        CompletableFuture<Boolean> stored = log.save(aid, here, List.of());
        lastSave = stored;
        if (!stored.join()) {
            throw new IllegalStateException("could not replicate the record of " + aid + " before taking it over");
        }
    }

    /** For a resumed agent: the logged messages it had not handled, to put back in its mailbox in order. */
    public synchronized List<Envelope> replayed() {
        return List.copyOf(replayedUnsaved); // before the agent runs, no save has covered any
    }

    /**
     * An unnumbered identity is never a repeat: only reply inboxes are sent those, and no agent can
     * take a reply inbox's name. Were one to reach an agent anyway, handling it is the lesser harm
     * (counter 0 is below every window, so it would otherwise be dropped as seen).
     */
    @Override
    public synchronized boolean seen(MessageId id) {
        if (id == null || id.isUnnumbered()) {
            return false;
        }
        return admitted.contains(id);
    }

    @Override
    public synchronized boolean firstTime(MessageId id) {
        return id == null || id.isUnnumbered() || admitted.add(id);
    }

    @Override
    public boolean hasRoom(ACLMessage message) {
        return log.hasRoom(message.estimatedBytes());
    }

    @Override
    public synchronized CompletableFuture<Void> admit(MessageId id, ACLMessage message, Consumer<Envelope> mailbox) {
        long seq = ++nextSeq;
        mailbox.accept(new Envelope(id, seq, message));
        LoggedMessage logged = log.append(aid, incarnation, seq, id, message);
        uncovered.add(logged);
        uncoveredBytes += logged.bytes();
        CompletableFuture<Void> acknowledged = logged.written().thenApply(segment -> {
            segment.acknowledge();
            return null;
        });
        if (id != null && !id.isUnnumbered() && !acknowledged.isDone()) {
            unacknowledged.put(id, acknowledged);
            // Taken out by the thread that completes the write: a concurrent map, not this journal's lock.
            acknowledged.whenComplete((ok, refused) -> unacknowledged.remove(id, acknowledged));
        }
        return acknowledged;
    }

    @Override
    public CompletableFuture<Void> duplicateOf(MessageId id) {
        return id == null ? DONE : unacknowledged.getOrDefault(id, DONE);
    }

    /**
     * How long after its last save this agent saves next: the save interval, shorter while the
     * node's log is filling up, none while the agent itself holds a lot (a save is small next to
     * large messages, and it releases them from memory and the log).
     */
    private long saveIntervalNanos() {
        return uncoveredBytes > SAVE_AFTER_BYTES ? 0 : (long) (SAVE_INTERVAL_NANOS * log.saveIntervalShare());
    }

    /**
     * Called on the agent's lane, from its handler: the counters, and which receiver they drop,
     * follow the handler's sends only, so a replay from a saved record numbers them again as the
     * lost run did. A reply inbox gets no counter (see {@link MessageId#unnumbered(String)}).
     */
    @Override
    public synchronized MessageId next(AID receiver) {
        if (ReplyInboxes.nodeOf(receiver).isPresent()) {
            return MessageId.unnumbered(origin);
        }
        return new MessageId(origin, sent.next(receiver));
    }

    @Override
    public synchronized void sent(CompletableFuture<Void> admittedByReceiver) {
        unadmittedOutputs.add(admittedByReceiver);
    }

    /**
     * Saves at most once per {@link #SAVE_INTERVAL_NANOS} per agent: a busy agent's later runs are
     * covered by one save, the messages in between stay in the inbox log (replayed after a crash).
     * A save that is due later is requested from the agent's mailbox, so it runs on the agent's
     * lane between two messages, where the state matches the position saved with it.
     */
    @Override
    public void handledUpTo(long seq, boolean now) {
        long interval = now ? 0 : saveIntervalNanos();
        if (!lastSave.isDone()) {
            // One save in flight per agent: when the writer falls behind, an agent's later runs are
            // covered by its next save instead of queueing records faster than they can be written.
            // That save still waits for the interval: a save waits for the agent's outputs to be
            // admitted, so under load nearly every run found one in flight, and a save requested
            // at once when it was written made a busy agent save on every other run.
            if (!waitingForWriter) {
                waitingForWriter = true;
                saveScheduled = true;
                long due = lastSaveNanos + interval;
                lastSave.whenComplete((ok, failed) -> requestSaveAt(due));
            }
            return;
        }
        waitingForWriter = false;
        long since = System.nanoTime() - lastSaveNanos;
        if (since < interval) {
            if (!saveScheduled) {
                saveScheduled = true;
                requestSaveAt(lastSaveNanos + interval);
            }
            return;
        }
        saveScheduled = false;
        lastSaveNanos = System.nanoTime();
        if (seq <= savedUpTo) {
            return;
        }
        AgentRecord record;
        CompletableFuture<Void> outputs;
        synchronized (this) {
            byte[] state;
            try {
                state = agent.saveState();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, e, () -> "the state of " + aid + " could not be saved; it is replicated as of inbox position " + savedUpTo);
                return;
            }
            List<CompletableFuture<InboxSegment>> covered = new ArrayList<>(unreleased);
            unreleased.clear();
            long polledBytes = 0;
            while (!uncovered.isEmpty() && uncovered.peek().seq() <= seq) {
                LoggedMessage m = uncovered.poll();
                markHandled(m.id());
                covered.add(m.written());
                polledBytes += m.bytes();
            }
            uncoveredBytes -= polledBytes;
            while (!replayedUnsaved.isEmpty() && replayedUnsaved.peek().seq() <= seq) {
                markHandled(replayedUnsaved.poll().id());
            }
            record = new AgentRecord(state, seq, handled.copy(), sent.saved(), incarnation, rangesAfter(seq), openQuestions());
            outputs = CompletableFuture.allOf(unadmittedOutputs.toArray(CompletableFuture[]::new));
            unadmittedOutputs = new ArrayList<>();
            savedUpTo = seq;
            // Refused outputs come back as FAILURE messages; either way they are settled.
            lastSave = CompletableFuture.allOf(outputs.handle((ok, refused) -> null), lastSave)
                    .thenCompose(ignored -> log.save(aid, record, covered))
                    .thenAccept(stored -> {
                        if (!stored) {
                            carryOver(covered);
                        }
                    });
        }
    }

    /**
     * The agent leaves this node (it moves): called on its lane once its mailbox has stopped
     * handing it messages ({@link Mailbox#leave}), with the last position it handled here. Saves
     * its state as of then, once its outputs are admitted (as every save waits for them) and every
     * message logged for it here is written: the next host then carries on exactly as a takeover
     * after a crash does, from this record and the messages the log holds after it (those still
     * queued here). Completes when the record is stored, with false if it could not be. This
     * node's log keeps those messages until the agent's record covers them
     * ({@link ReplicationLog#releaseWhenCovered}).
     */
    public CompletableFuture<Boolean> handOver(long handledHere) {
        AgentRecord record;
        List<CompletableFuture<InboxSegment>> covered;
        List<LoggedMessage> queued;
        CompletableFuture<Void> outputs;
        synchronized (this) {
            long seq = Math.max(handledHere, savedUpTo);
            byte[] state = agent.saveState();
            covered = new ArrayList<>(unreleased);
            unreleased.clear();
            while (!uncovered.isEmpty() && uncovered.peek().seq() <= seq) {
                LoggedMessage m = uncovered.poll();
                markHandled(m.id());
                covered.add(m.written());
            }
            while (!replayedUnsaved.isEmpty() && replayedUnsaved.peek().seq() <= seq) {
                markHandled(replayedUnsaved.poll().id());
            }
            record = new AgentRecord(state, seq, handled.copy(), sent.saved(), incarnation, rangesAfter(seq), openQuestions());
            queued = List.copyOf(uncovered);
            uncovered.clear();
            uncoveredBytes = 0;
            outputs = CompletableFuture.allOf(unadmittedOutputs.toArray(CompletableFuture[]::new));
            unadmittedOutputs = new ArrayList<>();
            savedUpTo = seq;
        }
        // Written, failed or not: a message whose write failed was refused to its sender.
        CompletableFuture<?> logged = CompletableFuture.allOf(queued.stream().map(m -> m.written().handle((ok, failed) -> null))
                .toArray(CompletableFuture[]::new));
        CompletableFuture<Boolean> stored = CompletableFuture.allOf(outputs.handle((ok, refused) -> null), logged, lastSave.handle((ok, failed) -> null))
                .thenCompose(ignored -> log.save(aid, record, covered));
        lastSave = stored;
        return stored.whenComplete((ok, failed) -> log.releaseWhenCovered(aid, incarnation, queued));
    }

    /** The agent's questions open now: called on its lane, where the state saved with them is. */
    private List<String> openQuestions() {
        return mailbox == null ? List.of() : mailbox.openQuestions();
    }

    /** Asks the mailbox for a save on the agent's lane at {@code due} ({@link System#nanoTime()}), or now if that has passed. */
    private void requestSaveAt(long due) {
        long wait = due - System.nanoTime();
        if (wait <= 0) {
            mailbox.requestSave();
        } else {
            timer.schedule(mailbox::requestSave, wait, TimeUnit.NANOSECONDS);
        }
    }

    /** A record that was not stored released nothing: the next save releases what it covered. */
    private synchronized void carryOver(List<CompletableFuture<InboxSegment>> covered) {
        unreleased.addAll(covered);
    }

    private void markHandled(MessageId id) {
        if (id != null && !id.isUnnumbered()) {
            handled.add(id);
        }
    }

    /**
     * Where a record that covers positions up to {@code handled} finds the messages after them:
     * this node's segments from the first that can hold one, and the earlier hosts' while it does
     * not cover what was replayed from them. Called with the messages covered by it already
     * taken out of {@code uncovered}.
     */
    private List<LogRange> rangesAfter(long handled) {
        // Appends are in position order and segment bounds never decrease: the first uncovered
        // message has the lowest bound; with none, anything logged later is past the writer's next.
        long from = uncovered.isEmpty() ? log.nextSegment() : uncovered.peek().lowestSegment();
        LogRange here = LogRange.open(log.writer(), from);
        if (handled >= replayedUpTo) {
            inherited = List.of();
            return List.of(here);
        }
        List<LogRange> ranges = new ArrayList<>(inherited);
        ranges.add(here);
        return ranges;
    }

    /**
     * How much this journal holds of what grows with the agents and callers it hears from or sends
     * to (each bounded, see {@link OriginWindows} and {@link ReceiverCounters}): for tests, and for
     * anyone looking into a node.
     */
    public record Footprint(int admittedOrigins, int handledOrigins, int receiverCounters) {
    }

    public synchronized Footprint footprint() {
        return new Footprint(admitted.size(), handled.size(), sent.size());
    }

    /** The agent has stopped: its saved state goes, and its logged messages are no longer needed. */
    public synchronized void stopped() {
        log.forget(aid);
        uncovered.forEach(m -> m.written().thenAccept(log::release));
        uncovered.clear();
        uncoveredBytes = 0;
    }
}
