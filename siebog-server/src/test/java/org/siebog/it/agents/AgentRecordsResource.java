package org.siebog.it.agents;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Test-only: {@code GET /siebog/api/it/records/{agent}} shows what a test agent saw
 * ({@code {"messages": [...], "events": [...], "maxInFlight": n}}); {@code POST /siebog/api/it/gates/{agent}/open}
 * lets a {@link Slow} agent go on. Only in the test deployment.
 */
@Path("it")
@Produces(MediaType.APPLICATION_JSON)
public class AgentRecordsResource {

    @Inject
    AgentRecords records;

    @GET
    @Path("records/{agent}")
    public JsonObject records(@PathParam("agent") String agent) {
        AgentRecords.Log log = records.of(agent);
        JsonArrayBuilder messages = Json.createArrayBuilder();
        for (AgentRecords.Entry e : log.messages()) {
            JsonObjectBuilder m = Json.createObjectBuilder().add("performative", e.performative()).add("atMillis", e.atMillis());
            addIfPresent(m, "sender", e.sender());
            addIfPresent(m, "content", e.content());
            addIfPresent(m, "conversationId", e.conversationId());
            addIfPresent(m, "replyWith", e.replyWith());
            addIfPresent(m, "inReplyTo", e.inReplyTo());
            messages.add(m);
        }
        JsonArrayBuilder events = Json.createArrayBuilder();
        log.events().forEach(events::add);
        return Json.createObjectBuilder()
                .add("messages", messages)
                .add("events", events)
                .add("maxInFlight", log.maxInFlight())
                .build();
    }

    @POST
    @Path("gates/{agent}/open")
    public Response openGate(@PathParam("agent") String agent) {
        records.openGate(agent);
        return Response.noContent().build();
    }

    private static void addIfPresent(JsonObjectBuilder json, String field, String value) {
        if (value != null) {
            json.add(field, value);
        }
    }
}
