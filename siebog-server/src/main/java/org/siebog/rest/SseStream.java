package org.siebog.rest;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.siebog.api.SiebogException;

/**
 * One client's Server-Sent Events stream, bounded: a stream whose client reads too slowly
 * ({@link #MAX_UNSENT} events not yet written to it) is closed rather than buffered, and a comment every
 * {@link #KEEP_ALIVE_S} seconds keeps proxies from closing a quiet stream and finds clients that left.
 * What feeds it stops at {@link #closed()}. The streams of one kind are counted by a {@link Limit}.
 */
abstract class SseStream {

    static final int MAX_UNSENT = 256;
    static final long KEEP_ALIVE_S = 15;

    private final SseEventSink sink;
    private final Sse sse;
    private final Limit limit;
    private final AtomicInteger unsent = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile ScheduledFuture<?> keepAlive;

    /** Takes a place of {@code limit} for the stream, or refuses it (503). */
    SseStream(SseEventSink sink, Sse sse, Limit limit) {
        limit.take();
        this.sink = sink;
        this.sse = sse;
        this.limit = limit;
    }

    /** Starts the keep-alive comments, once the stream's first events are sent. */
    final void keepAlive(ScheduledExecutorService timer) {
        keepAlive = timer.scheduleWithFixedDelay(() -> send(sse.newEventBuilder().comment("keep-alive").build()),
                KEEP_ALIVE_S, KEEP_ALIVE_S, TimeUnit.SECONDS);
        if (closed.get()) {
            keepAlive.cancel(false); // closed meanwhile: close() found no timer to cancel
        }
    }

    /** Sends an event named {@code name} whose data is {@code json}. */
    final void sendJson(String name, String json) {
        send(sse.newEventBuilder().name(name).mediaType(MediaType.APPLICATION_JSON_TYPE).data(json).build());
    }

    private synchronized void send(OutboundSseEvent event) { // the keep-alive timer sends too: one write at a time
        if (closed.get()) {
            return;
        }
        if (sink.isClosed() || unsent.incrementAndGet() > MAX_UNSENT) {
            close();
            return;
        }
        sink.send(event).whenComplete((ok, failed) -> {
            unsent.decrementAndGet();
            if (failed != null) {
                close(); // the client went away
            }
        });
    }

    final boolean isClosed() {
        return closed.get();
    }

    /**
     * Gives the stream's place back without touching its sink, for a stream refused before it began (its
     * request then answers with the refusal's status, which a closed sink could no longer carry).
     */
    final void abandon() {
        if (!closed.getAndSet(true)) {
            limit.give();
        }
    }

    /** What feeds the stream lets go of it. */
    abstract void closed();

    final void close() {
        if (closed.getAndSet(true)) {
            return;
        }
        closed();
        ScheduledFuture<?> timer = keepAlive;
        if (timer != null) {
            timer.cancel(false);
        }
        limit.give();
        try {
            sink.close();
        } catch (RuntimeException alreadyGone) {
            // nothing to tell a client that has gone
        }
    }

    /** How many streams of one kind a node serves at once. */
    static final class Limit {
        private final int max;
        private final String what;
        private final AtomicInteger open = new AtomicInteger();

        /** {@code what}: the streams and the property that bounds them, for the refusal's text. */
        Limit(int max, String what) {
            this.max = max;
            this.what = what;
        }

        private void take() {
            if (open.incrementAndGet() > max) {
                open.decrementAndGet();
                throw new StreamsFullException("this node already serves " + max + " " + what + "; try again later or on another node");
            }
        }

        private void give() {
            open.decrementAndGet();
        }
    }

    /** 503: this node serves as many streams of the kind as it may. */
    static final class StreamsFullException extends SiebogException {

        StreamsFullException(String message) {
            super(message);
        }

        @Override
        public int status() {
            return 503;
        }
    }
}
