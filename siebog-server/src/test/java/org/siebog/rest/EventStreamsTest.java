package org.siebog.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Consumer;

import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseBroadcaster;
import jakarta.ws.rs.sse.SseEventSink;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.siebog.connection.ClusterEvents;
import org.siebog.delivery.AgentExecutor;
import org.siebog.platform.NodeEvent;

/**
 * An event stream's bound on what waits for its client (pure logic: the sink, the node's events and
 * the timer are stand-ins): a client that reads nothing is closed once {@link EventStreams#MAX_UNSENT}
 * events wait for it, and stops being handed events; one that reads is never closed.
 */
class EventStreamsTest {

    private static final NodeEvent EVENT = NodeEvent.now(NodeEvent.Type.DEVICE_LEFT, "node1", Map.of("device", "d-00000001"));

    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private Consumer<NodeEvent> listener;
    private Consumer<NodeEvent> ignored;

    private EventStreams streams() {
        EventStreams streams = new EventStreams();
        streams.events = new ClusterEvents() {
            @Override
            public List<NodeEvent> listen(Consumer<NodeEvent> l) {
                listener = l;
                return List.of();
            }

            @Override
            public void ignore(Consumer<NodeEvent> l) {
                ignored = l;
            }
        };
        streams.executor = new AgentExecutor() {
            @Override
            public ScheduledExecutorService timer() {
                return timer;
            }
        };
        return streams;
    }

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    /** A sink whose sends complete only when {@code reads} says so; counts them. */
    private static final class Sink implements SseEventSink {
        final boolean reads;
        int sent;
        boolean closed;

        Sink(boolean reads) {
            this.reads = reads;
        }

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public CompletionStage<?> send(OutboundSseEvent event) {
            sent++;
            return reads ? CompletableFuture.completedFuture(null) : new CompletableFuture<>();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Builds events that nobody looks into: every builder call answers the builder, build() an event. */
    private static Sse sse() {
        OutboundSseEvent event = (OutboundSseEvent) Proxy.newProxyInstance(EventStreamsTest.class.getClassLoader(),
                new Class<?>[] {OutboundSseEvent.class}, (proxy, method, args) -> null);
        OutboundSseEvent.Builder builder = (OutboundSseEvent.Builder) Proxy.newProxyInstance(EventStreamsTest.class.getClassLoader(),
                new Class<?>[] {OutboundSseEvent.Builder.class}, (proxy, method, args) -> method.getName().equals("build") ? event : proxy);
        return new Sse() {
            @Override
            public OutboundSseEvent.Builder newEventBuilder() {
                return builder;
            }

            @Override
            public SseBroadcaster newBroadcaster() {
                throw new UnsupportedOperationException();
            }
        };
    }

    @Test
    void aClientThatReadsNothingIsClosedOnceMaxUnsentEventsWaitForIt() {
        Sink sink = new Sink(false);
        streams().open(sink, sse());
        assertNotNull(listener);
        for (int i = 0; i < EventStreams.MAX_UNSENT; i++) {
            listener.accept(EVENT);
        }
        assertFalse(sink.closed, "at the bound: still open");
        assertEquals(EventStreams.MAX_UNSENT, sink.sent);

        listener.accept(EVENT);
        assertTrue(sink.closed, "one beyond the bound: closed");
        assertEquals(listener, ignored, "and no longer handed events");
        listener.accept(EVENT);
        assertEquals(EventStreams.MAX_UNSENT, sink.sent, "nothing more is written to it");
    }

    @Test
    void aClientThatReadsIsNeverClosed() {
        Sink sink = new Sink(true);
        streams().open(sink, sse());
        for (int i = 0; i < 10 * EventStreams.MAX_UNSENT; i++) {
            listener.accept(EVENT);
        }
        assertFalse(sink.closed);
        assertNull(ignored);
        assertEquals(10 * EventStreams.MAX_UNSENT, sink.sent);
    }
}
