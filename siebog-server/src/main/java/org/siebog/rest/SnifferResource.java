package org.siebog.rest;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.siebog.api.AID;
import org.siebog.delivery.AgentExecutor;
import org.siebog.delivery.Sniffer;
import org.siebog.directory.AgentDirectory;
import org.siebog.message.ACLMessageJson;
import org.siebog.message.SniffFilter;
import org.siebog.message.SniffedMessage;

/**
 * {@code GET /api/sniffer?agent=A&agent=B&conversation=C}: copies of the messages that the chosen agents
 * send or receive, and of the chosen conversations, from every node, as Server-Sent Events named
 * {@code message} (docs/admin.md, "Sniffer"): each agent's recent messages first (marked
 * {@code recent}), then each as a node admits it. Admins only: a copy shows a message's content. Each
 * stream opened is written to the audit log.
 */
@Path("sniffer")
@RolesAllowed(Roles.ADMIN)
public class SnifferResource {

    /** A node serves this many sniffer streams at once (503 beyond). */
    static final int MAX_STREAMS = 16;
    private static final SseStream.Limit LIMIT = new SseStream.Limit(MAX_STREAMS, "sniffer streams");

    @Inject
    Sniffer sniffer;

    @Inject
    AgentDirectory directory;

    @Inject
    AgentExecutor executor;

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void sniff(@QueryParam("agent") List<String> agents, @QueryParam("conversation") List<String> conversations,
            @Context SseEventSink sink, @Context Sse sse, @Context SecurityContext security, @Context HttpServletRequest http) {
        Set<AID> watched = agents.stream().map(RequestBodies::aid).collect(Collectors.toSet());
        SniffFilter filter = new SniffFilter(watched, Set.copyOf(conversations)); // 400 when it watches nothing or too much
        Stream stream = new Stream(sink, sse);
        AuditLog.action(security.getUserPrincipal().getName(), http.getRemoteAddr(), "GET",
                "/api/sniffer " + filter.agents() + " " + filter.conversations(), 200);
        stream.start(filter);
    }

    /** One client's stream: the copies of one watch. */
    private final class Stream extends SseStream implements Consumer<SniffedMessage> {

        private Sniffer.Watch watch;

        Stream(SseEventSink sink, Sse sse) {
            super(sink, sse, LIMIT);
        }

        synchronized void start(SniffFilter filter) {
            try {
                watch = sniffer.watch(filter, this);
            } catch (RuntimeException refused) { // the node holds as many taps as it may (503)
                abandon();
                throw refused;
            }
            if (isClosed()) { // closed while the recent copies were sent, before there was a watch to close
                watch.close();
                return;
            }
            keepAlive(executor.timer());
        }

        @Override
        public void accept(SniffedMessage copy) {
            JsonObjectBuilder json = Json.createObjectBuilder().add("node", copy.node()).add("at", copy.at())
                    .add("receiver", copy.receiver().toString()).add("recent", copy.recent()).add("missed", copy.missed())
                    .add("message", ACLMessageJson.toJson(copy.message()));
            addLocation(json, "receiverLocation", copy.receiver());
            addLocation(json, "senderLocation", copy.message().sender());
            sendJson("message", json.build().toString());
        }

        /** Where the agent is now (a node, or a device for a client agent); nothing for a caller outside the platform. */
        private void addLocation(JsonObjectBuilder json, String field, AID aid) {
            if (aid != null) {
                directory.lookup(aid).ifPresent(entry -> json.add(field, entry.info().location()));
            }
        }

        @Override
        synchronized void closed() {
            if (watch != null) {
                watch.close();
            }
        }
    }
}
