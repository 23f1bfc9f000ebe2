package org.siebog.device;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;

/**
 * One device's WebSocket on this node. Frames to the device go out one at a time, in the order
 * they were pushed, from whichever thread pushed them: an async send may not start before the
 * previous one has finished, so they queue here instead of each thread blocking on the socket.
 *
 * <p>The queue is where a device that does not read (or reads too slowly) makes the node hold
 * frames, so it is bounded ({@link DeviceLimits#maxOutboxBytes()}): one frame more would pass the
 * bound, the queue is dropped, nothing more is sent or read, and the {@link Overflow} listener
 * closes the device. A single frame larger than the bound may still wait alone.
 *
 * <p>A node holds one of these per device (19,000 on one node in perf/devices), so an idle device
 * costs only its fields: the queue and the buffer for a frame in parts exist only while in use.
 */
final class DeviceConnection {

    private static final Logger LOG = Logger.getLogger(DeviceConnection.class.getName());

    /** Told when a device's queue of frames passed its bound: the connection has stopped sending and reading. */
    interface Overflow {
        void overflowed(DeviceConnection connection, long queuedBytes);
    }

    private final Session session;
    private final DeviceLimits limits;
    private final Overflow overflow;
    private final FrameRateLimiter rate;
    private final long openedAt = System.currentTimeMillis();
    private final MessageRate messages = new MessageRate();
    private volatile long lastSeen = openedAt;
    private volatile String deviceId;
    /** State requests of this device waiting for the store. */
    private final AtomicInteger pendingState = new AtomicInteger();

    // Outgoing, guarded by this: whether a send is in flight, the frames waiting behind it and
    // their UTF-8 bytes, and whether the node gave up on the device (then nothing more is sent).
    private boolean sending;
    private ArrayDeque<Queued> outbox;
    private long outboxBytes;
    private volatile boolean shut;

    private record Queued(String frame, int bytes) {
    }

    // Incoming, guarded by this: a frame arriving in parts.
    private StringBuilder partial;
    private int partialBytes;
    private boolean tooLarge;

    DeviceConnection(Session session, DeviceLimits limits, Overflow overflow) {
        this.session = session;
        this.limits = limits;
        this.overflow = overflow;
        this.rate = limits.rateLimiter();
    }

    /** Counts a frame from the device against its rate ({@link FrameRateLimiter}); called for each frame, in order. */
    FrameRateLimiter.Verdict rate() {
        return rate.take(System.nanoTime());
    }

    DeviceLimits limits() {
        return limits;
    }

    String deviceId() {
        return deviceId;
    }

    /** A {@code join} answered with a challenge: what the join said, until the device's {@code solution}. */
    record Joining(ComputeUnitChallenge challenge, String label) {
    }

    /** Between a {@code join} and its {@code solution}: at most one per socket, and gone once it joins or closes. */
    private volatile Joining joining;

    void challenged(Joining pending) {
        joining = pending;
    }

    /** The challenge this socket must answer before it joins, or null. */
    Joining joining() {
        return joining;
    }

    void joinedAs(String id) {
        deviceId = id;
        joining = null;
    }

    boolean joined() {
        return deviceId != null;
    }

    long openedAt() {
        return openedAt;
    }

    long lastSeen() {
        return lastSeen;
    }

    void touch() {
        lastSeen = System.currentTimeMillis();
    }

    /**
     * Adds a part of an incoming frame; returns the whole frame with its last part, else null (also
     * once the frame has gone over {@code maxBytes} of UTF-8, see {@link #frameTooLarge()}).
     */
    synchronized String assemble(String part, boolean last, int maxBytes) {
        if (tooLarge) {
            return null;
        }
        partialBytes += utf8Length(part);
        if (partialBytes > maxBytes) {
            tooLarge = true;
            partial = null;
            return null;
        }
        if (last && partial == null) {
            partialBytes = 0;
            return part;
        }
        if (partial == null) {
            partial = new StringBuilder(part.length() * 2);
        }
        partial.append(part);
        if (!last) {
            return null;
        }
        String frame = partial.toString();
        partial = null;
        partialBytes = 0;
        return frame;
    }

    synchronized boolean frameTooLarge() {
        return tooLarge;
    }

    static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3; // a surrogate pair is 4
        }
        return bytes;
    }

    void send(String frame) {
        long overflowedAt;
        synchronized (this) {
            if (shut) {
                return;
            }
            if (!sending) {
                sending = true;
                overflowedAt = -1;
            } else {
                int bytes = utf8Length(frame);
                if (outbox != null && !outbox.isEmpty() && outboxBytes + bytes > limits.maxOutboxBytes()) {
                    overflowedAt = outboxBytes + bytes;
                    shut = true;
                    outbox = null;
                    outboxBytes = 0;
                } else {
                    if (outbox == null) {
                        outbox = new ArrayDeque<>(4);
                    }
                    outbox.add(new Queued(frame, bytes));
                    outboxBytes += bytes;
                    return;
                }
            }
        }
        if (overflowedAt >= 0) {
            overflow.overflowed(this, overflowedAt);
        } else {
            transmit(frame);
        }
    }

    /** One more message the device sent, or acknowledged as delivered to it. */
    void countMessage() {
        messages.count(System.currentTimeMillis());
    }

    /** The device's messages per second (sent and acknowledged) over the last whole window of {@link MessageRate}. */
    double messagesPerSecond() {
        return messages.perSecond(System.currentTimeMillis());
    }

    /** Whether the node gave up on this device (it read too slowly, or broke a limit): its frames are no longer read. */
    boolean shut() {
        return shut;
    }

    /** Stops sending to the device (what waits is dropped) and reading from it, ahead of closing it. */
    synchronized void shutDown() {
        shut = true;
        outbox = null;
        outboxBytes = 0;
    }

    /** The next queued frame, or null after marking that no send is in flight. */
    private synchronized String next() {
        Queued next = outbox == null ? null : outbox.poll();
        if (next == null) {
            sending = false;
            outbox = null;
            outboxBytes = 0;
            return null;
        }
        outboxBytes -= next.bytes();
        return next.frame();
    }

    /**
     * Sends {@code frame} and then whatever queued behind it. Of this loop and the send's completion
     * callback, whichever comes second goes on with the next frame: a send that completes inside
     * {@code sendText} leaves it to this loop, so a long queue does not become a deep stack.
     */
    private void transmit(String frame) {
        while (frame != null) {
            AtomicInteger arrivals = new AtomicInteger();
            try {
                session.getAsyncRemote().sendText(frame, result -> {
                    if (!result.isOK()) {
                        LOG.log(Level.FINE, "a frame to device " + deviceId + " was not sent", result.getException());
                    }
                    if (arrivals.getAndIncrement() == 1) {
                        transmit(next());
                    }
                });
            } catch (RuntimeException closed) {
                synchronized (this) {
                    sending = false;
                    outbox = null;
                    outboxBytes = 0;
                }
                return;
            }
            if (arrivals.getAndIncrement() == 0) {
                return; // the callback goes on once the send completes
            }
            frame = next();
        }
    }

    /** Closes with a code from docs/device-protocol.md; the reason must fit a close frame (123 bytes). */
    void close(int code, String reason) {
        String fitted = reason.length() > 120 ? reason.substring(0, 120) : reason;
        try {
            session.close(new CloseReason(CloseReason.CloseCodes.getCloseCode(code), fitted));
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "closing device " + deviceId, e);
        }
    }

    /** Counts a state request in, unless {@code max} are pending already. */
    boolean beginStateRequest(int max) {
        if (pendingState.incrementAndGet() > max) {
            pendingState.decrementAndGet();
            return false;
        }
        return true;
    }

    void endStateRequest() {
        pendingState.decrementAndGet();
    }

    boolean isOpen() {
        return session.isOpen();
    }
}
