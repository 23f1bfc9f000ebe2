package org.siebog.rest;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentManager;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.UnknownAgentException;

/** {@code /api/agent-classes} and {@code /api/agents}: every role reads them, only admins start and stop agents. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class AgentResource {

    @EJB
    AgentManager agents;

    @GET
    @Path("agent-classes")
    public List<AgentClassView> agentClasses() {
        return agents.agentClasses().stream().map(AgentClassView::of).toList();
    }

    /**
     * Every agent, in AID order, or a page of them ({@link Paging}: {@code limit}, {@code after}),
     * filtered by {@code class} (the agent class), {@code location} (a node's name or a device's id)
     * and {@code name} (part of the AID, any case).
     */
    @GET
    @Path("agents")
    public Response list(@QueryParam("limit") String limit, @QueryParam("after") String after,
            @QueryParam("class") String agentClass, @QueryParam("location") String location,
            @QueryParam("name") String name, @Context UriInfo uri) {
        String part = name == null ? null : name.toLowerCase(Locale.ROOT);
        Stream<AgentView> matching = agents.agents().stream().map(AgentView::of)
                .filter(a -> agentClass == null || a.agentClass().equals(agentClass))
                .filter(a -> location == null || location.equals(a.location()))
                .filter(a -> part == null || a.aid().toLowerCase(Locale.ROOT).contains(part));
        return Paging.response(Paging.of(matching, AgentView::aid, limit, after), uri);
    }

    @GET
    @Path("agents/{aid}")
    public AgentView find(@PathParam("aid") String aid) {
        AID id = RequestBodies.aid(aid);
        return agents.find(id).map(AgentView::of).orElseThrow(() -> new UnknownAgentException(id));
    }

    /**
     * {@code {"agentClass", "name", "args": {}, "node", "device"}} → 201 {@code {"aid", "location"}}.
     * {@code node} (server agents) and {@code device} (client agents) are optional: without them the
     * placement selector, or the compute-unit balancer, chooses.
     */
    @POST
    @Path("agents")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    public Response start(JsonObject body) {
        RequestBodies.requireObject(body);
        RequestBodies.allowOnly(body, "agentClass", "name", "args", "node", "device");
        String agentClass = RequestBodies.requiredString(body, "agentClass");
        String name = RequestBodies.requiredString(body, "name");
        String node = body.containsKey("node") && !body.isNull("node") ? RequestBodies.requiredString(body, "node") : null;
        String device = body.containsKey("device") && !body.isNull("device") ? RequestBodies.requiredString(body, "device") : null;
        AgentInfo info = agents.start(agentClass, name, args(body.get("args")), node, device);
        return Response.created(URI.create("agents/" + info.aid()))
                .entity(Map.of("aid", info.aid().toString(), "location", info.location()))
                .build();
    }

    @DELETE
    @Path("agents/{aid}")
    @RolesAllowed(Roles.ADMIN)
    public Response stop(@PathParam("aid") String aid) {
        agents.stop(RequestBodies.aid(aid));
        return Response.noContent().build();
    }

    /**
     * {@code {"node"}} → 200 {@code {"aid", "agentClass", "location"}} once a stateful agent runs on
     * that node: it finishes the message in hand and carries on there, every message sent to it
     * handled in order, none lost or twice ({@link AgentManager#move}). {@code {"device"}} (an id, or
     * null for one the balancer picks) moves a client agent to another device through its saved
     * state ({@link AgentManager#moveToDevice}).
     */
    @POST
    @Path("agents/{aid}/move")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    public AgentView move(@PathParam("aid") String aid, JsonObject body) {
        AID id = RequestBodies.aid(aid);
        RequestBodies.requireObject(body);
        RequestBodies.allowOnly(body, "node", "device");
        if (body.containsKey("device")) {
            if (body.containsKey("node")) {
                throw new InvalidAgentRequestException("give \"node\" (a server agent) or \"device\" (a client agent), not both");
            }
            String device = body.isNull("device") ? null : RequestBodies.requiredString(body, "device");
            return AgentView.of(agents.moveToDevice(id, device));
        }
        return AgentView.of(agents.move(id, RequestBodies.requiredString(body, "node")));
    }

    /** Arguments are strings; JSON numbers and booleans are taken as their text. */
    private static Map<String, String> args(JsonValue value) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return Map.of();
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new InvalidAgentRequestException("'args' must be a JSON object, got " + value);
        }
        Map<String, String> args = new LinkedHashMap<>();
        value.asJsonObject().forEach((key, arg) -> {
            switch (arg.getValueType()) {
                case STRING -> args.put(key, ((JsonString) arg).getString());
                case NUMBER, TRUE, FALSE -> args.put(key, arg.toString());
                default -> throw new InvalidAgentRequestException(
                        "argument '" + key + "' must be a string, number or boolean, got " + arg);
            }
        });
        return args;
    }
}
