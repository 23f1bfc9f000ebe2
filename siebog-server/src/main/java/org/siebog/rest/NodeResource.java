package org.siebog.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.siebog.api.ConnectionManager;
import org.siebog.api.NodeInfo;

/** {@code GET /api/nodes}: the cluster's nodes and their agent counts. */
@Path("nodes")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class NodeResource {

    @EJB
    ConnectionManager connections;

    @GET
    public List<NodeInfo> nodes() {
        return connections.nodes();
    }
}
