package org.siebog.rest;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

/**
 * {@code GET /api/events}: the cluster's events as Server-Sent Events (docs/admin.md, "Events"), the
 * last hundred first, then each as it happens: nodes joining and leaving, failovers with their
 * duration, devices joining and leaving, client agents started again elsewhere. Any role may watch.
 */
@Path("events")
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class EventResource {

    @Inject
    EventStreams streams;

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void events(@Context SseEventSink sink, @Context Sse sse) {
        streams.open(sink, sse);
    }
}
