package org.siebog.replication;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.siebog.agent.AID;
import org.siebog.agent.Agent;
import org.siebog.delivery.Envelope;
import org.siebog.delivery.Journal;
import org.siebog.delivery.Mailbox;
import org.siebog.delivery.Origin;
import org.siebog.message.ACLMessage;
import org.siebog.message.ACLMessageJson;
import org.siebog.message.MessageId;

/**
 * The replication of one stateful agent on the node that runs it.
 *
 * <p>Admission: a message's identity is checked against those admitted before (a duplicate is
 * dropped, answered as admitted), it gets the next inbox position and reaches the mailbox, and its
 * admission is acknowledged once it is logged on two nodes (until then its sender keeps it). After each run of messages the agent's state is saved with the
 * position it has handled up to, once every message it sent meanwhile has been admitted by its
 * receiver: so after a crash, either a sent message is held by its receiver, or the handler that
 * sent it runs again from the saved state and sends it again under the same identity, and the
 * receiver drops the copy.
 */
public final class AgentJournal implements Journal, Origin {

    private static final Logger LOG = Logger.getLogger(AgentJournal.class.getName());

    private final AID aid;
    private final Agent agent;
    private final ReplicationLog log;

    private final Map<String, DedupWindow> admitted;
    private final Map<String, Long> sent;
    private long nextSeq;
    private long savedUpTo;
    private List<CompletableFuture<Void>> unadmittedOutputs = new ArrayList<>();
    /** The previous save: saves of one agent reach the cache in order. */
    private CompletableFuture<?> lastSave = CompletableFuture.completedFuture(null);

    /** How often a busy agent's state is saved at most ({@code siebog.replication.save-interval-ms}, default 20). */
    static final long SAVE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(Long.getLong("siebog.replication.save-interval-ms", 20));

    private Mailbox mailbox;
    private ScheduledExecutorService timer;
    private long lastSaveNanos;
    private boolean saveScheduled;

    /** Where the journal asks for a deferred save; set when the agent is hosted. */
    public void attach(Mailbox hostMailbox, ScheduledExecutorService saveTimer) {
        this.mailbox = hostMailbox;
        this.timer = saveTimer;
        hostMailbox.journal(this);
    }

    private AgentJournal(AID aid, Agent agent, ReplicationLog log, AgentRecord record, long nextSeq) {
        this.aid = aid;
        this.agent = agent;
        this.log = log;
        this.admitted = new HashMap<>(record.admitted());
        this.sent = new HashMap<>(record.sent());
        this.savedUpTo = record.handledSeq();
        this.nextSeq = nextSeq;
    }

    /** For an agent about to start: messages admitted meanwhile are logged and wait for it. */
    public static AgentJournal starting(AID aid, Agent agent, ReplicationLog log) {
        return new AgentJournal(aid, agent, log, new AgentRecord(new byte[0], 0, Map.of(), Map.of()), 0);
    }

    /** Saves the state {@code onStart} left, before the agent takes its first message; returns once replicated. */
    public void started() {
        AgentRecord first;
        synchronized (this) {
            Map<String, DedupWindow> windows = new HashMap<>();
            admitted.forEach((origin, window) -> windows.put(origin, window.copy()));
            first = new AgentRecord(agent.saveState(), 0, windows, Map.copyOf(sent));
        }
        log.saveNow(aid, first);
    }

    /**
     * For an agent taken over from a dead node: its saved record, and the logged messages it had
     * not handled, whose identities count as admitted.
     */
    public static AgentJournal resumed(AID aid, Agent agent, ReplicationLog log, AgentRecord record, List<Envelope> pending) {
        long last = pending.isEmpty() ? record.handledSeq() : pending.get(pending.size() - 1).seq();
        AgentJournal journal = new AgentJournal(aid, agent, log, record, last);
        for (Envelope e : pending) {
            journal.admitted.computeIfAbsent(e.id().origin(), o -> new DedupWindow()).add(e.id().counter());
        }
        return journal;
    }

    @Override
    public synchronized boolean firstTime(MessageId id) {
        return id == null || admitted.computeIfAbsent(id.origin(), o -> new DedupWindow()).add(id.counter());
    }

    @Override
    public synchronized CompletableFuture<Void> admit(MessageId id, ACLMessage message, Consumer<Envelope> mailbox) {
        long seq = ++nextSeq;
        mailbox.accept(new Envelope(id, seq, message));
        return log.append(aid, seq, id, ACLMessageJson.write(message));
    }

    @Override
    public synchronized MessageId next(AID receiver) {
        return new MessageId(aid.toString(), sent.merge(receiver.toString(), 1L, Long::sum));
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
        long since = System.nanoTime() - lastSaveNanos;
        if (!now && since < SAVE_INTERVAL_NANOS) {
            if (!saveScheduled) {
                saveScheduled = true;
                timer.schedule(mailbox::requestSave, SAVE_INTERVAL_NANOS - since, TimeUnit.NANOSECONDS);
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
        long from;
        synchronized (this) {
            byte[] state;
            try {
                state = agent.saveState();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, e, () -> "the state of " + aid + " could not be saved; it is replicated as of inbox position " + savedUpTo);
                return;
            }
            Map<String, DedupWindow> windows = new HashMap<>();
            admitted.forEach((origin, window) -> windows.put(origin, window.copy()));
            record = new AgentRecord(state, seq, windows, Map.copyOf(sent));
            outputs = CompletableFuture.allOf(unadmittedOutputs.toArray(CompletableFuture[]::new));
            unadmittedOutputs = new ArrayList<>();
            from = savedUpTo + 1;
            savedUpTo = seq;
            // Refused outputs come back as FAILURE messages; either way they are settled.
            lastSave = CompletableFuture.allOf(outputs.handle((ok, refused) -> null), lastSave)
                    .thenRun(() -> log.save(aid, record, from, seq));
        }
    }

    /** Inbox positions: handled (saved) and last admitted; for dropping them when the agent stops. */
    public synchronized long[] positions() {
        return new long[] {savedUpTo, nextSeq};
    }
}
