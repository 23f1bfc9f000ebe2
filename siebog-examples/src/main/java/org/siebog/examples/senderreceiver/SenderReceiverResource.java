package org.siebog.examples.senderreceiver;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.siebog.api.AgentManager;
import org.siebog.api.ConnectionManager;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.examples.web.BodyFields;

/**
 * Runs of the Sender/Receiver benchmark inside the platform, for {@code perf/sender-receiver}:
 * {@code POST /siebog-examples/api/sender-receiver/runs} {@code {"pairs", "payloadChars", "primeLimit",
 * "warmup", "measured", "senderNode", "receiverNode"}} → 202 {@code {"id"}}; {@code GET .../runs/{id}} →
 * its state and result. The two node names are optional: given, every Sender runs on one and every
 * Receiver is pinned to the other, so every round trip crosses nodes. Starting a run is for admins
 * (it starts thousands of agents); every role may read one.
 */
@Path("sender-receiver/runs")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"siebog-viewer", "siebog-user", "siebog-admin"})
public class SenderReceiverResource {

    private static final AtomicLong RUN_NUMBERS = new AtomicLong();

    /**
     * The longest content the node accepts ({@code siebog.message.max-content-chars}, README's table): a
     * larger payload is refused here, before thousands of agents start to send messages that would be
     * refused. Read from the node's system property, as any deployment compiled against siebog-api can.
     */
    private static final int MAX_CONTENT_CHARS = Integer.getInteger("siebog.message.max-content-chars", 1_048_576);

    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    @Inject
    SenderReceiverRuns runs;

    @EJB(lookup = ConnectionManager.JNDI_NAME)
    ConnectionManager connections;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed("siebog-admin")
    public Response start(JsonObject body) {
        if (body == null) {
            throw new InvalidAgentRequestException("the request needs a JSON object body");
        }
        Map<String, String> args = new LinkedHashMap<>();
        args.put("pairs", Long.toString(BodyFields.wholeNumber(body, "pairs", 1, 1, 50_000)));
        args.put("payloadChars", Long.toString(BodyFields.wholeNumber(body, "payloadChars", 7, 0, MAX_CONTENT_CHARS)));
        args.put("primeLimit", Long.toString(BodyFields.wholeNumber(body, "primeLimit", 0, 0, 10_000_000)));
        args.put("warmup", Long.toString(BodyFields.wholeNumber(body, "warmup", 100, 1, 1_000_000)));
        args.put("measured", Long.toString(BodyFields.wholeNumber(body, "measured", 100, 1, 1_000_000)));
        for (String placement : List.of("senderNode", "receiverNode")) {
            if (body.containsKey(placement) && !body.isNull(placement)) {
                args.put(placement, body.getString(placement, null));
            }
        }
        String id = "sender-receiver-run-" + System.currentTimeMillis() + "-" + RUN_NUMBERS.incrementAndGet();
        runs.started(id, args);
        // The coordinator reports to this node's run registry, so it runs here.
        agents.start("SenderReceiverRun", id, args, connections.localNode());
        return Response.accepted(Map.of("id", id)).location(URI.create("sender-receiver/runs/" + id)).build();
    }

    @GET
    @Path("{id}")
    public Response status(@PathParam("id") String id) {
        return runs.find(id).map(run -> Response.ok(run).build()).orElseGet(() -> Response.status(404)
                .entity(Map.of("error", "no Sender/Receiver run " + id)).build());
    }
}
