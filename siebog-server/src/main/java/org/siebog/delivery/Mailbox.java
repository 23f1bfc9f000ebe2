package org.siebog.delivery;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentContext;
import org.siebog.api.Performative;
import org.siebog.platform.PlatformConfig;

/**
 * One agent's queue of admitted messages, and the task that hands them to the agent.
 *
 * <p>Agents own no threads: a mailbox with messages is scheduled on its agent's lane, handles up to
 * {@code throughput} messages, then yields the lane to other agents and reschedules itself if
 * more arrived. The {@code scheduled} flag makes sure that at most one thread runs a mailbox, so an
 * agent handles one message at a time, in admission order. No thread sees every message: posters
 * schedule mailboxes themselves onto the lanes.
 *
 * <p>Admission is two-step ({@link #reserve()} then {@link #enqueue(ACLMessage)}) so that a message
 * for several receivers is admitted to all of them or to none. The mailbox is bounded: when
 * {@code capacity} messages are waiting, {@code reserve()} fails and the poster is told; nothing is
 * dropped silently.
 *
 * <p>Besides messages, a mailbox runs its agent's own tasks on the lane, before its next message:
 * the answers and failures of the agent's questions ({@link PendingAsks}), so that a stage's actions
 * run between the agent's messages, as its handlers do. An answer that arrives as a message to the
 * agent is taken out where the message would be handed over.
 */
public final class Mailbox implements Runnable {

    private static final Logger LOG = Logger.getLogger(Mailbox.class.getName());
    /** The user property of a FAILURE that stands for a question lost with its node ({@link #questionsLost}). */
    public static final String QUESTION_LOST = "siebog-question-lost";
    private static final VarHandle ADMITTED;
    private static final VarHandle SCHEDULED;
    private static final VarHandle SAVE_REQUESTED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ADMITTED = lookup.findVarHandle(Mailbox.class, "admitted", int.class);
            SCHEDULED = lookup.findVarHandle(Mailbox.class, "scheduled", boolean.class);
            SAVE_REQUESTED = lookup.findVarHandle(Mailbox.class, "saveRequested", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AgentContext context;
    private final Agent agent;
    private final Executor executor;
    private final int capacity;
    private final int throughput;
    /** The node's {@code siebog.messages.delivered} and {@code siebog.messages.handled} (see {@link AgentHost}). */
    private final HandlerMeters meters;
    /** Messages to hand over before the next one is timed (only the running lane touches it). */
    private int untimed;

    private final Queue<Envelope> queue = new ConcurrentLinkedQueue<>();
    /**
     * The agent's own tasks: for each open question its timeout, its refusal or its forwarded answer,
     * whichever come (at most three), so bounded as the questions are. Made with the agent's first
     * question, as {@link #asks} is: most agents never ask, and their messages then touch neither
     * (two objects fewer per agent, and two fewer cache misses per message on a loaded node).
     */
    private volatile Queue<Runnable> tasks;
    private volatile PendingAsks asks;
    private volatile Journal journal = Journal.NONE;
    /** The message the agent is handling now, and how many names it has taken while handling it (the lane's own). */
    private Envelope handling;
    private int namesTaken;
    /** The inbox position of the last message handled (only the running lane writes it). */
    private volatile long handledSeq;
    /*
     * The three flags and counters every message reads or writes are fields of the mailbox itself,
     * changed atomically through VarHandles: as AtomicBoolean and AtomicInteger objects they were
     * three more objects per agent, each a likely cache miss on a node whose agents outnumber its
     * caches (one node, 1000 Sender/Receiver pairs).
     */
    private volatile boolean saveRequested;
    /** Messages reserved or waiting; at most {@code capacity}. */
    private volatile int admitted;
    /** True while a run is pending or in progress, and before {@link #activate()}: holds messages back until the agent has started. */
    private volatile boolean scheduled = true;
    private volatile boolean closed;
    /**
     * Set while this node claims the agent from another ({@link #holdUntilClaimed()}): until the
     * claim is won nothing may be admitted here, as a node that loses it drops this mailbox, and
     * with it anything admitted to it.
     */
    private volatile boolean claiming;
    /** Admissions that came while {@code claiming}, in order (at most {@code capacity}); made only for a mailbox that is claimed. */
    private List<Runnable> waitingForClaim;
    private volatile boolean stopped;
    private Runnable afterStop;
    /** Set when the agent moves away: takes the last position handled, on the lane, once no admission is in progress. */
    private volatile LongConsumer onLeft;

    public Mailbox(AgentContext context, Agent agent, Executor executor, int capacity, int throughput, HandlerMeters meters) {
        this.context = context;
        this.agent = agent;
        this.executor = executor;
        this.capacity = capacity;
        this.throughput = throughput;
        this.meters = meters;
    }

    public AID owner() {
        return context.self();
    }

    /** What the agent is handed with every call. */
    public AgentContext context() {
        return context;
    }

    public Agent agent() {
        return agent;
    }

    public Journal journal() {
        return journal;
    }

    /** Set once by {@link AgentHost}, before any sender can find the mailbox. */
    public void journal(Journal value) {
        journal = value;
    }

    /** The agent's questions awaiting answers on this node. */
    PendingAsks asks() {
        PendingAsks pending = asks;
        return pending != null ? pending : questionsOpened();
    }

    private synchronized PendingAsks questionsOpened() {
        if (asks == null) {
            tasks = new ConcurrentLinkedQueue<>();
            asks = new PendingAsks(PlatformConfig.SYSTEM.maxPendingAsks());
        }
        return asks;
    }

    private Queue<Runnable> tasksOpened() {
        questionsOpened();
        return tasks;
    }

    private boolean hasTasks() {
        Queue<Runnable> own = tasks;
        return own != null && !own.isEmpty();
    }

    public int capacity() {
        return capacity;
    }

    /** Messages waiting (including reserved slots). */
    public int size() {
        return admitted;
    }

    /** Claims room for one message; false when the mailbox is full, closed or still being claimed. */
    public boolean reserve() {
        for (;;) {
            int n = admitted;
            if (n >= capacity || closed || claiming) {
                return false;
            }
            if (ADMITTED.compareAndSet(this, n, n + 1)) {
                return true;
            }
        }
    }

    /** Gives back a slot claimed by {@link #reserve()} that will not be used. */
    public void cancelReservation() {
        if (((int) ADMITTED.getAndAdd(this, -1) == 1 || onLeft != null) && closed) {
            schedule(); // a closing or leaving mailbox may have been waiting for this slot to settle
        }
    }

    /** Adds a message for which {@link #reserve()} succeeded. */
    public void enqueue(ACLMessage message) {
        enqueue(Envelope.unlogged(message));
    }

    public void enqueue(Envelope envelope) {
        queue.offer(envelope);
        schedule();
    }

    /**
     * Adds a message admitted before a failover, whatever the capacity: its sender was told it was
     * accepted, so it must be handled; new messages are refused until the mailbox is under capacity again.
     */
    public void replay(Envelope envelope) {
        ADMITTED.getAndAdd(this, 1);
        enqueue(envelope);
    }

    /** Runs {@code task} on the agent's lane, before its next message; dropped once the agent has stopped. */
    void runBetweenMessages(Runnable task) {
        if (stopped) {
            return;
        }
        Queue<Runnable> own = tasks;
        (own != null ? own : tasksOpened()).offer(task);
        schedule();
    }

    /** Asks for the agent's state to be saved on its lane, between two messages (see {@link Journal}). */
    public void requestSave() {
        saveRequested = true;
        schedule();
    }

    /**
     * Admits nothing until the claim is settled ({@link #claimed()}, or {@link #leave} when it is lost):
     * for an agent this node takes over, or takes in from another, before the directory says it is this
     * node's. Messages that arrive meanwhile wait ({@link #whenClaimSettled}).
     */
    public synchronized void holdUntilClaimed() {
        waitingForClaim = new ArrayList<>();
        claiming = true;
    }

    /** This node won the agent: messages are admitted from now on, those that waited first, in the order they came. */
    public void claimed() {
        settleClaim();
    }

    /** True until the claim is settled, once {@link #holdUntilClaimed()} was called: reservations fail meanwhile. */
    public boolean beingClaimed() {
        return claiming;
    }

    /**
     * Runs {@code admission} once the claim is settled (won: the mailbox admits; lost: it has been
     * left, {@link #left()}), in the order such admissions came; false, running nothing, when it is
     * settled already. At most {@code capacity} wait: a claim takes a cache write or two.
     *
     * @throws IllegalStateException when {@code capacity} admissions wait already
     */
    public boolean whenClaimSettled(Runnable admission) {
        synchronized (this) {
            if (!claiming) {
                return false;
            }
            if (waitingForClaim.size() >= capacity) {
                throw new IllegalStateException("the mailbox of " + owner() + " is full while its node claims it");
            }
            waitingForClaim.add(admission);
            return true;
        }
    }

    private void settleClaim() {
        List<Runnable> waited;
        synchronized (this) {
            claiming = false;
            waited = waitingForClaim == null ? List.of() : waitingForClaim;
            waitingForClaim = null; // a mailbox is claimed once: nothing of it stays with the agent
        }
        waited.forEach(Runnable::run);
    }

    /** Lets messages through once the agent has started. */
    public void activate() {
        scheduled = false;
        if (!queue.isEmpty() || hasTasks() || closed) {
            schedule();
        }
    }

    /**
     * Refuses new messages; the agent still handles those already admitted, then is stopped and
     * {@code afterStop} runs.
     */
    public void close(Runnable afterStop) {
        this.afterStop = afterStop;
        closed = true;
        schedule();
    }

    /**
     * The agent moves to another node: the mailbox refuses new messages at once ({@link #reserve()}
     * fails, {@link #left()} says why), the agent finishes the message in hand and handles no
     * other here. Once every admission already in progress has put its message in the queue,
     * {@code onLeft} runs on the agent's lane with the last inbox position the agent handled; the
     * messages still queued are the inbox log's to hand on (the next host reads them there), so
     * they are dropped here with the agent's own pending tasks. The mailbox never runs again.
     */
    public void leave(LongConsumer onLeft) {
        this.onLeft = onLeft;
        closed = true;
        schedule();
        if (claiming) {
            settleClaim(); // lost: what waited finds the agent where it is now
        }
    }

    /** True once {@link #leave} was called: a refused reservation means "find the agent elsewhere", not "full". */
    public boolean left() {
        return onLeft != null;
    }

    @Override
    public void run() {
        if (onLeft != null) {
            leaveOnceSettled();
            return;
        }
        long lastSeq = 0;
        if (saveRequested && (boolean) SAVE_REQUESTED.getAndSet(this, false) && handledSeq > 0) {
            journal.handledUpTo(handledSeq, true); // on this lane, between messages: the state matches handledSeq
        }
        try {
            Queue<Runnable> own = tasks;
            for (Runnable task; own != null && (task = own.poll()) != null; ) {
                runTask(task);
            }
            Envelope next;
            for (int handled = 0; handled < throughput && onLeft == null && mayHandle() && (next = queue.poll()) != null; handled++) {
                ADMITTED.getAndAdd(this, -1);
                deliver(next);
                lastSeq = Math.max(lastSeq, next.seq());
            }
        } finally {
            if (lastSeq > 0) {
                handledSeq = lastSeq;
                journal.handledUpTo(lastSeq, false);
            }
            // Even if an Error escaped the agent, the mailbox must not stay "scheduled" forever.
            // A closing mailbox stops only when no slot is reserved either: a poster that reserved
            // before the close gets its message handled, not stranded.
            if (closed && admitted == 0 && onLeft == null) {
                stopAgent(); // and stay "scheduled": a stopped mailbox never runs again
            } else {
                scheduled = false;
                if (!queue.isEmpty() || hasTasks() || (closed && admitted == 0)) {
                    schedule();
                }
            }
        }
    }

    /**
     * Runs {@code onLeft} once no reservation is pending (each reserved slot is either in the queue
     * or given back): until then a poster may still be putting a message in that the log must hold
     * before the next host reads it.
     */
    private void leaveOnceSettled() {
        if (admitted != queue.size()) {
            scheduled = false;
            if (admitted == queue.size()) {
                schedule(); // settled between the check and the reset
            }
            return;
        }
        stopped = true; // and stay "scheduled": a mailbox that was left never runs again
        try {
            onLeft.accept(handledSeq); // first: what it hands over names the questions still open
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, e, () -> "agent " + owner() + " could not be handed over");
        }
        dropQuestions();
        if (!queue.isEmpty()) {
            journal.dropped(owner() + " left this node with the message unhandled");
        }
    }

    /**
     * Asked before each message, not only when the lane picks the mailbox up: a node paused in the
     * middle of a run (SIGSTOP, a frozen VM) must not handle the rest of it when it wakes up after its
     * agents were taken over elsewhere.
     */
    private boolean mayHandle() {
        return !(executor instanceof Lane lane) || lane.open();
    }

    private void deliver(Envelope envelope) {
        ACLMessage message = envelope.message();
        meters.delivered().increment();
        boolean timed = untimed-- == 0;
        if (timed) {
            untimed = HandlerMeters.SAMPLE_EVERY - 1;
        }
        long began = timed ? System.nanoTime() : 0;
        try {
            PendingAsks pending = asks;
            if (pending == null || !pending.answer(message)) {
                handling = envelope;
                namesTaken = 0;
                agent.handle(context, message);
            }
        } catch (RuntimeException e) {
            // AbstractAgent contains handler failures; reaching here means the bean itself is broken.
            LOG.log(Level.SEVERE, e, () -> "agent " + owner() + " could not be called; message dropped: " + message);
        } finally {
            handling = null;
            if (timed) {
                meters.handled().record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
            }
        }
    }

    /**
     * The {@code replyWith} of the agent's next question. A replicated agent's handler, replayed after a
     * failover, asks its questions again under the same identities, which their receivers drop as
     * repeats: under the same names too, so the answers to the first asking reach the second. So a
     * question asked while handling a message is named after that message's identity and its place
     * among the handler's questions; any other (asked from a stage's action, or by an agent that is
     * not replicated) gets a random name.
     */
    String nextQuestionName() {
        return "ask-" + nextNameInHandler();
    }

    /**
     * A name for the next thing the agent's handler does that must come out the same when the handler
     * is replayed on another node (a question, a delayed post): the identity of the message it handles
     * and the thing's place among the handler's such things; random outside a handler, or for an agent
     * that is not replicated.
     */
    String nextNameInHandler() {
        Envelope asking = handling;
        if (asking != null && asking.id() != null && !asking.id().isUnnumbered() && journal instanceof Origin) {
            // Hashed: an origin may itself be made of such a name (a delayed post's), and names must not grow.
            String message = asking.id().origin() + "#" + asking.id().counter();
            return UUID.nameUUIDFromBytes(message.getBytes(StandardCharsets.UTF_8)) + "-" + ++namesTaken;
        }
        return UUID.randomUUID().toString();
    }

    /**
     * For an agent carried on from a saved record (a failover, a move), before anything else reaches it:
     * a FAILURE for each question that was open when the record was saved, from the agent to itself,
     * {@code inReplyTo} the question, with the user property {@value #QUESTION_LOST} {@code "true"}. The
     * question's stage died with the node it was asked on; an answer that still comes reaches the agent
     * as an ordinary message.
     */
    public void questionsLost(List<String> replyWiths, String where) {
        for (String replyWith : replyWiths) {
            replay(Envelope.unlogged(ACLMessage.builder(Performative.FAILURE).sender(owner()).receiver(owner()).inReplyTo(replyWith)
                    .userProperty(QUESTION_LOST, "true")
                    .content("the question " + replyWith + " was open when " + owner() + " left " + where
                            + "; its stage is lost there: an answer that still comes arrives as an ordinary message")
                    .build()));
        }
    }

    /** The {@code replyWith}s of the agent's questions open now (saved with its state: see AgentJournal). */
    public List<String> openQuestions() {
        PendingAsks pending = asks;
        return pending == null ? List.of() : pending.open();
    }

    /** The agent stopped or left: its own tasks are dropped and its questions never complete. */
    private void dropQuestions() {
        Queue<Runnable> own = tasks;
        if (own != null) {
            own.clear();
        }
        PendingAsks pending = asks;
        if (pending != null) {
            pending.dropAll();
        }
    }

    private void runTask(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "a task of agent " + owner() + " failed");
        }
    }

    private void schedule() {
        if (!scheduled && SCHEDULED.compareAndSet(this, false, true)) {
            executor.execute(this);
        }
    }

    private void stopAgent() {
        stopped = true;
        dropQuestions();
        try {
            agent.stop(context);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "agent " + owner() + " failed while stopping");
        } finally {
            if (afterStop != null) {
                afterStop.run();
            }
        }
    }
}
