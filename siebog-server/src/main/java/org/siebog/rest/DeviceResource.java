package org.siebog.rest;

import java.util.stream.Stream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.siebog.device.DeviceView;
import org.siebog.device.WebClientManager;

/**
 * {@code GET /api/devices}: the joined devices, their compute units and agent counts, in id order,
 * or a page of them ({@link Paging}: {@code limit}, {@code after}), filtered by {@code node} (the
 * node whose socket the device holds).
 */
@Path("devices")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class DeviceResource {

    @Inject
    WebClientManager webClients;

    @GET
    public Response devices(@QueryParam("limit") String limit, @QueryParam("after") String after,
            @QueryParam("node") String node, @Context UriInfo uri) {
        Stream<DeviceView> matching = webClients.devices().stream().filter(d -> node == null || node.equals(d.node()));
        return Paging.response(Paging.of(matching, DeviceView::id, limit, after), uri);
    }
}
