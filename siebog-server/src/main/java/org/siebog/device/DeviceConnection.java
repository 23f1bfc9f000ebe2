package org.siebog.device;

import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;

/**
 * One device's WebSocket on this node. Frames to the device go out one at a time, in the order
 * they were pushed, from whichever thread pushed them: an async send may not start before the
 * previous one has finished, so they queue here instead of each thread blocking on the socket.
 */
final class DeviceConnection {

    private static final Logger LOG = Logger.getLogger(DeviceConnection.class.getName());

    private final Session session;
    private final long openedAt = System.currentTimeMillis();
    private volatile long lastSeen = openedAt;
    private volatile String deviceId;
    private final Queue<String> outbox = new ConcurrentLinkedQueue<>();
    private final StringBuilder partial = new StringBuilder();
    private int partialBytes;
    private boolean tooLarge;
    private final AtomicBoolean sending = new AtomicBoolean();

    DeviceConnection(Session session) {
        this.session = session;
    }

    String deviceId() {
        return deviceId;
    }

    void joinedAs(String id) {
        deviceId = id;
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
            partial.setLength(0);
            return null;
        }
        if (last && partial.isEmpty()) {
            partialBytes = 0;
            return part;
        }
        partial.append(part);
        if (!last) {
            return null;
        }
        String frame = partial.toString();
        partial.setLength(0);
        partialBytes = 0;
        return frame;
    }

    synchronized boolean frameTooLarge() {
        return tooLarge;
    }

    private static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3; // a surrogate pair is 4
        }
        return bytes;
    }

    void send(String frame) {
        outbox.add(frame);
        pump();
    }

    /**
     * Sends queued frames while no send is in flight. A send that completes later pumps again; one
     * that completes inside {@code sendText} leaves that to this loop, so a long queue does not
     * become a deep stack.
     */
    private void pump() {
        while (!outbox.isEmpty() && sending.compareAndSet(false, true)) {
            String next = outbox.poll();
            if (next == null) {
                sending.set(false);
                continue;
            }
            AtomicBoolean returned = new AtomicBoolean();
            try {
                session.getAsyncRemote().sendText(next, result -> {
                    if (!result.isOK()) {
                        LOG.log(Level.FINE, "a frame to device " + deviceId + " was not sent", result.getException());
                    }
                    sending.set(false);
                    if (returned.get()) {
                        pump();
                    }
                });
            } catch (RuntimeException closed) {
                sending.set(false);
                outbox.clear();
                return;
            }
            returned.set(true);
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

    boolean isOpen() {
        return session.isOpen();
    }
}
