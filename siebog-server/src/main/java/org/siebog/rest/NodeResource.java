package org.siebog.rest;

import java.util.List;

import java.util.stream.Stream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.siebog.api.AID;
import org.siebog.api.ConnectionManager;
import org.siebog.api.NodeInfo;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.NodeLease;
import org.siebog.delivery.AgentHost;
import org.siebog.delivery.PlatformAgents;

/**
 * {@code GET /api/nodes}: the cluster's nodes and their agent counts; {@code GET /api/nodes/here} and
 * {@code /here/agents}: the answering node as it sees itself, and the agents that live on it.
 */
@Path("nodes")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class NodeResource {

    /**
     * {@code GET /api/nodes/here}: the node that answers, as it sees itself. Asked of every node, it shows
     * whether two of them believe they may act for the same agents (they must not).
     *
     * @param name    the node's name
     * @param acting  whether it admits and handles messages for its agents now (it holds its lease)
     * @param refusal why not, as its 503s say it; null (left out of the JSON) while it acts
     * @param view    the members of its cluster view, oldest first
     * @param nodes   the Siebog nodes it sees (the view's members whose Siebog has started), in view order
     * @param agents  how many agents live on it (its instances of balanced stateless agents not counted)
     * @param keptOut the nodes it keeps out of the cluster, itself among them when it is kept out, because
     *                not every node hears them (a link cut, or cut one way); empty while every node hears every other
     */
    public record Here(String name, boolean acting, String refusal, List<String> view, List<String> nodes, long agents,
            List<String> keptOut) {
    }

    @EJB
    ConnectionManager connections;

    @Inject
    ClusterNode cluster;

    @Inject
    AgentHost host;

    @Inject
    PlatformAgents platformAgents;

    @GET
    public List<NodeInfo> nodes() {
        return connections.nodes();
    }

    @GET
    @Path("here")
    public Here here() {
        NodeLease lease = cluster.lease();
        boolean acting = lease.holds();
        return new Here(cluster.name(), acting, acting ? null : lease.refusal().getMessage(), lease.members(), cluster.members(),
                hosted().count(), cluster.keptOut());
    }

    /** The AIDs of the agents that live on this node, in AID order, or a page of them ({@link Paging}). */
    @GET
    @Path("here/agents")
    public Response hostedAgents(@QueryParam("limit") String limit, @QueryParam("after") String after, @Context UriInfo uri) {
        return Paging.response(Paging.of(hosted().map(AID::toString), aid -> aid, limit, after), uri);
    }

    private Stream<AID> hosted() {
        return host.owned().filter(aid -> !platformAgents.reserved(aid.name()));
    }
}
