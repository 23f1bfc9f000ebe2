package org.siebog.device;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentContext;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.api.StartTimedOutException;
import org.siebog.platform.Failures;
import org.siebog.state.SavedState;

/**
 * The server side of a client agent. It sits in an ordinary mailbox, so messages to a client agent
 * are routed, ordered and bounded like any agent's; handling one means pushing it to the device.
 * Every delivery is kept until the device acknowledges it, so when the device goes away the agent
 * is started on another device and gets, in order, what the old one had not acknowledged. Its
 * mailbox is replicated as a stateful agent's is (the inbox log, and a saved record whose state is
 * the unacknowledged deliveries), so when the proxy's <em>node</em> dies a survivor carries on with
 * both.
 */
final class ClientAgentProxy implements Agent {

    /** Enough for a node that booted a moment ago to finish connecting to Cassandra. */
    static final long STATE_READ_TIMEOUT_MS = 30_000;

    /**
     * Bytes (as characters of frame text) of deliveries pushed to the device and not yet acknowledged,
     * at most, unless a single delivery is larger: the rest wait here, where they are kept until
     * acknowledged anyway. So a backlog (an agent that moved, or whose device is slow) reaches its
     * device as fast as the device acknowledges, instead of all at once into the device's outbox,
     * which is bounded ({@code siebog.device.max-outbox-bytes}) and would close an honest device.
     */
    static final int DELIVERY_WINDOW_CHARS = 256 * 1024;

    /** The layout of {@link #saveState}: its first byte. */
    private static final int BACKLOG_FORMAT = 1;

    /** A delivery's frame, written once: pushed again as it is if the agent moves before acknowledging it. */
    private record Delivery(long seq, String frame) {
    }

    private final AID aid;
    private final String agentClass;
    private final String module;
    private final Map<String, String> args;
    private final DevicePush push;
    private final Function<AID, CompletionStage<SavedState>> savedState;

    private String device;
    private boolean running;
    private boolean stopped;
    /** Its saved state is being read, to start it: the sweep leaves it alone meanwhile. */
    private boolean readingState;
    /** The caller of {@link #start} waits for the first start, and answers for its deadline. */
    private boolean awaited;
    /** Its device has been told to end it, as it moves to another: completes when the device says it has. */
    private CompletableFuture<Void> leaving;
    /** The deadline of the last start sent, read from the properties when it was sent. */
    private StartDeadline startDeadline = StartDeadline.current();
    /** From creation, not 0: a proxy whose first start has not launched yet is not overdue. */
    private long launchedAt = System.currentTimeMillis();
    private CompletableFuture<Void> starting = new CompletableFuture<>();
    private long seq;
    private final ArrayDeque<Delivery> unacked = new ArrayDeque<>();
    /** The highest {@code seq} pushed to the current device, and the characters of those pushed and not acknowledged. */
    private long pushedUpTo;
    private long pushedChars;

    /** @param savedState what the agent starts from: its saved state, read when it (re)starts */
    ClientAgentProxy(AID aid, String agentClass, String module, Map<String, String> args, String device, DevicePush push,
            Function<AID, CompletionStage<SavedState>> savedState) {
        this.aid = aid;
        this.agentClass = agentClass;
        this.module = module;
        this.args = Map.copyOf(args);
        this.device = device;
        this.push = push;
        this.savedState = savedState;
    }

    AID aid() {
        return aid;
    }

    String agentClass() {
        return agentClass;
    }

    /** Its device has started it and takes its messages. */
    synchronized boolean running() {
        return running;
    }

    /**
     * First start, on the device it was placed on: waits until the device has run {@code onStart}.
     * An agent of a name used before starts from what is saved under it (nothing, once the earlier
     * agent was stopped: stopping clears it). The sweep leaves the proxy alone meanwhile: this
     * caller answers for its deadline. A device that misses it is skipped by placement for a while
     * and the caller gets a 504.
     */
    @Override
    public void start(AgentContext context, Map<String, String> ignored) {
        String onDevice = device();
        synchronized (this) {
            awaited = true;
        }
        try {
            SavedState saved = await(readSavedState(), STATE_READ_TIMEOUT_MS, "reading the saved state of " + aid,
                    () -> new RemoteNodeException("reading the saved state of " + aid + " took over " + STATE_READ_TIMEOUT_MS + " ms"));
            CompletableFuture<Void> started = launch(onDevice, saved);
            StartDeadline deadline = startDeadline;
            await(started, deadline.timeoutMs(), "device " + onDevice + " starting " + aid, () -> {
                push.missedStart(onDevice);
                return new StartTimedOutException(aid, onDevice, deadline.timeoutMs(), deadline.backoffMs());
            });
        } finally {
            synchronized (this) {
                awaited = false;
            }
        }
    }

    /** Waits for {@code stage}; past {@code timeoutMs} the device is told to stop the agent and {@code timedOut} is thrown. */
    private <T> T await(CompletionStage<T> stage, long timeoutMs, String what, Supplier<? extends SiebogException> timedOut) {
        try {
            return stage.toCompletableFuture().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            stopOnDevice();
            throw timedOut.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopOnDevice();
            throw new RemoteNodeException("interrupted while " + what);
        } catch (ExecutionException e) { // a refusal: nothing runs on the device
            throw Failures.refusal(e, cause -> new RemoteNodeException(cause.toString()));
        }
    }

    /**
     * Starts the agent on {@code onDevice} from its start arguments and saved state; completes when
     * it has started there.
     */
    synchronized CompletableFuture<Void> launch(String onDevice, SavedState saved) {
        if (stopped) {
            return CompletableFuture.failedFuture(new RemoteNodeException(aid + " was stopped before it started"));
        }
        leaving = null;
        device = onDevice;
        running = false;
        readingState = false;
        launchedAt = System.currentTimeMillis();
        startDeadline = StartDeadline.current();
        starting = new CompletableFuture<>();
        push.toDevice(device, new DeviceFrames.Start(aid, agentClass, module, args, saved).write());
        return starting;
    }

    /** Reads the saved state to start the agent from; the sweep skips the proxy until {@link #launch} or {@link #detach}. */
    synchronized CompletionStage<SavedState> readSavedState() {
        readingState = true;
        return savedState.apply(aid);
    }

    synchronized boolean readingState() {
        return readingState;
    }

    /** Its first start, whose caller waits for it and answers for its deadline: the sweep leaves it alone. */
    synchronized boolean awaited() {
        return awaited;
    }

    @Override
    public synchronized void handle(AgentContext context, ACLMessage message) {
        seq++;
        unacked.add(new Delivery(seq, new DeviceFrames.Deliver(aid, seq, message).write()));
        if (running) {
            pushWithinWindow();
        }
    }

    synchronized void started(String fromDevice) {
        if (!fromDevice.equals(device) || running) {
            return;
        }
        running = true;
        pushedUpTo = 0; // a new device has none of them
        pushedChars = 0;
        pushWithinWindow();
        starting.complete(null);
    }

    /** Pushes the deliveries not yet pushed to the device, in order, while the window has room. */
    private void pushWithinWindow() {
        for (Delivery d : unacked) {
            if (d.seq() <= pushedUpTo) {
                continue;
            }
            if (pushedChars > 0 && pushedChars + d.frame().length() > DELIVERY_WINDOW_CHARS) {
                return;
            }
            push.toDevice(device, d.frame());
            pushedUpTo = d.seq();
            pushedChars += d.frame().length();
        }
    }

    synchronized void failedToStart(String fromDevice, String error) {
        if (fromDevice.equals(device) && !running) {
            starting.completeExceptionally(new InvalidAgentRequestException("agent " + aid + " failed to start on device "
                    + fromDevice + ": " + error));
        }
    }

    synchronized void acknowledged(String fromDevice, long upTo) {
        if (!fromDevice.equals(device)) {
            return;
        }
        while (!unacked.isEmpty() && unacked.peek().seq() <= upTo) {
            Delivery done = unacked.poll();
            if (done.seq() <= pushedUpTo) {
                pushedChars -= done.frame().length();
            }
        }
        if (running) {
            pushWithinWindow();
        }
    }

    /**
     * Runs {@code action} (e.g. recording a new device in the directory) unless the agent was stopped:
     * under this proxy's lock, so a stop either comes before (and nothing runs) or after (and undoes
     * it). Without this, a sweep re-placing the agent while it stops would bring its directory entry
     * back after the stop removed it, and start a copy on a device that nobody stops.
     */
    synchronized boolean unlessStopped(Runnable action) {
        if (stopped) {
            return false;
        }
        action.run();
        return true;
    }

    /** Stopped for good (DELETE, or its start failed): never to be placed again. */
    synchronized boolean stopped() {
        return stopped;
    }

    /** Its device: null while it waits for one. */
    synchronized String device() {
        return device;
    }

    /** Started on a device that has not confirmed within the deadline: worth trying another. */
    synchronized boolean startOverdue(long now) {
        return device != null && !running && now - launchedAt > startDeadline.timeoutMs();
    }

    /** Its device is gone: deliveries wait (unacknowledged ones included) until it runs somewhere again. */
    synchronized void detach() {
        device = null;
        running = false;
        readingState = false;
        leaving = null;
    }

    /**
     * The agent moves to another device: its device is told to end it without its {@code onStop},
     * nothing more is pushed there, and its acknowledgements still count until it reports the agent
     * ended (it sends them first), so what it handled is not handed to the next device again.
     * Completes then; the sweep leaves the proxy alone meanwhile.
     */
    synchronized CompletableFuture<Void> leaveDevice() {
        running = false;
        leaving = new CompletableFuture<>();
        push.toDevice(device, new DeviceFrames.Stop(aid, true).write());
        return leaving;
    }

    /** Its device reports the agent ended there. */
    synchronized void ended(String fromDevice) {
        if (leaving != null && fromDevice.equals(device)) {
            leaving.complete(null);
        }
    }

    /** Its device is ending it, as it moves ({@link #leaveDevice}). */
    synchronized boolean leaving() {
        return leaving != null;
    }

    @Override
    public void stop(AgentContext context) {
        stopOnDevice();
    }

    private synchronized void stopOnDevice() {
        stopped = true;
        if (device != null) {
            push.toDevice(device, new DeviceFrames.Stop(aid).write());
        }
        device = null;
        running = false;
    }

    /**
     * What the proxy holds for its node's successor: the deliveries its device has not acknowledged
     * (as of this save) and the last number given, so that after its node dies the proxy a survivor
     * takes over (from this and the inbox log after it, as any stateful agent's) pushes them again
     * under the same numbers, which a device still running the agent drops as repeats. The agent's own
     * state lives with it on its device, and what it saves in Cassandra (StateManager).
     */
    @Override
    public synchronized byte[] saveState() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(BACKLOG_FORMAT);
            out.writeLong(seq);
            out.writeInt(unacked.size());
            for (Delivery d : unacked) {
                out.writeLong(d.seq());
                byte[] frame = d.frame().getBytes(StandardCharsets.UTF_8);
                out.writeInt(frame.length);
                out.write(frame);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: not thrown
        }
        return bytes.toByteArray();
    }

    /** Carries on from {@link #saveState}: the saved deliveries wait for the device, pushed from the first. */
    @Override
    public synchronized void restoreState(AgentContext context, byte[] state) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
            int format = in.readUnsignedByte();
            if (format != BACKLOG_FORMAT) {
                throw new IllegalStateException(aid + ": a saved proxy of format " + format + ", not " + BACKLOG_FORMAT);
            }
            seq = in.readLong();
            unacked.clear();
            for (int n = in.readInt(); n > 0; n--) {
                long deliverySeq = in.readLong();
                byte[] frame = in.readNBytes(in.readInt());
                unacked.add(new Delivery(deliverySeq, new String(frame, StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            throw new IllegalStateException(aid + ": a saved proxy that cannot be read: " + e, e);
        }
        pushedUpTo = 0;
        pushedChars = 0;
    }
}
