package org.siebog.rest;

import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.siebog.connection.ClusterEvents;
import org.siebog.delivery.AgentExecutor;
import org.siebog.platform.NodeEvent;
import org.siebog.platform.Setting;

/**
 * The open streams of {@code GET /api/events}: each gets the recent events, then every new one. A
 * node serves at most {@link #MAX_STREAMS} at once (503 beyond); a client that reads too slowly is
 * closed ({@link SseStream}) and may connect again, getting the recent events anew.
 */
@ApplicationScoped
class EventStreams {

    static final int MAX_STREAMS = Setting.EVENTS_MAX_SUBSCRIBERS.intValue();
    static final int MAX_UNSENT = SseStream.MAX_UNSENT;

    @Inject
    ClusterEvents events;

    @Inject
    AgentExecutor executor;

    private final SseStream.Limit limit = new SseStream.Limit(MAX_STREAMS, "event streams (siebog.events.max-subscribers)");

    void open(SseEventSink sink, Sse sse) {
        new Stream(sink, sse).start();
    }

    /** One client's stream. */
    private final class Stream extends SseStream implements Consumer<NodeEvent> {

        Stream(SseEventSink sink, Sse sse) {
            super(sink, sse, limit);
        }

        /** The recent events first: a live one that comes meanwhile waits for them (accept takes this lock too). */
        synchronized void start() {
            events.listen(this).forEach(this::accept);
            keepAlive(executor.timer());
        }

        @Override
        public synchronized void accept(NodeEvent event) {
            JsonObjectBuilder details = Json.createObjectBuilder();
            event.details().forEach(details::add);
            sendJson(event.type().wire(), Json.createObjectBuilder().add("type", event.type().wire()).add("node", event.node())
                    .add("at", event.at()).add("details", details).build().toString());
        }

        @Override
        void closed() {
            events.ignore(this);
        }
    }
}
