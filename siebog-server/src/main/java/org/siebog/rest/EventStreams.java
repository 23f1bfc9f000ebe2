package org.siebog.rest;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.siebog.api.SiebogException;
import org.siebog.connection.ClusterEvents;
import org.siebog.delivery.AgentExecutor;
import org.siebog.platform.NodeEvent;
import org.siebog.platform.Setting;

/**
 * The open streams of {@code GET /api/events}: each gets the recent events, then every new one. A
 * node serves at most {@link #MAX_STREAMS} at once (503 beyond), and a stream whose client reads
 * too slowly ({@link #MAX_UNSENT} events not yet written to it) is closed rather than buffered: the
 * client may connect again and gets the recent events anew. A comment every
 * {@link #KEEP_ALIVE_S} seconds keeps proxies from closing a quiet stream and finds clients that left.
 */
@ApplicationScoped
class EventStreams {

    static final int MAX_STREAMS = Setting.EVENTS_MAX_SUBSCRIBERS.intValue();
    static final int MAX_UNSENT = 256;
    static final long KEEP_ALIVE_S = 15;

    @Inject
    ClusterEvents events;

    @Inject
    AgentExecutor executor;

    private final AtomicInteger open = new AtomicInteger();

    void open(SseEventSink sink, Sse sse) {
        if (open.incrementAndGet() > MAX_STREAMS) {
            open.decrementAndGet();
            throw new StreamsFullException();
        }
        new Stream(sink, sse).start();
    }

    /** One client's stream. */
    private final class Stream implements Consumer<NodeEvent> {

        private final SseEventSink sink;
        private final Sse sse;
        private final AtomicInteger unsent = new AtomicInteger();
        private final AtomicBoolean closed = new AtomicBoolean();
        private volatile ScheduledFuture<?> keepAlive;

        Stream(SseEventSink sink, Sse sse) {
            this.sink = sink;
            this.sse = sse;
        }

        /** The recent events first: a live one that comes meanwhile waits for them (accept takes this lock too). */
        synchronized void start() {
            events.listen(this).forEach(this::accept);
            keepAlive = executor.timer().scheduleWithFixedDelay(() -> send(sse.newEventBuilder().comment("keep-alive").build()),
                    KEEP_ALIVE_S, KEEP_ALIVE_S, TimeUnit.SECONDS);
        }

        @Override
        public synchronized void accept(NodeEvent event) {
            JsonObjectBuilder details = Json.createObjectBuilder();
            event.details().forEach(details::add);
            String json = Json.createObjectBuilder().add("type", event.type().wire()).add("node", event.node()).add("at", event.at())
                    .add("details", details).build().toString();
            send(sse.newEventBuilder().name(event.type().wire()).mediaType(MediaType.APPLICATION_JSON_TYPE).data(json).build());
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

        private void close() {
            if (closed.getAndSet(true)) {
                return;
            }
            events.ignore(this);
            ScheduledFuture<?> timer = keepAlive;
            if (timer != null) {
                timer.cancel(false);
            }
            open.decrementAndGet();
            try {
                sink.close();
            } catch (RuntimeException alreadyGone) {
                // nothing to tell a client that has gone
            }
        }
    }

    /** 503: this node serves as many event streams as it may. */
    static final class StreamsFullException extends SiebogException {

        StreamsFullException() {
            super("this node already serves " + MAX_STREAMS + " event streams (siebog.events.max-subscribers); try again later or on another node");
        }

        @Override
        public int status() {
            return 503;
        }
    }
}
