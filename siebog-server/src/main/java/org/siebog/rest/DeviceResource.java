package org.siebog.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.siebog.device.DeviceView;
import org.siebog.device.WebClientManager;

/** {@code GET /api/devices}: the joined devices, their compute units and agent counts. */
@Path("devices")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class DeviceResource {

    @Inject
    WebClientManager webClients;

    @GET
    public List<DeviceView> devices() {
        return webClients.devices();
    }
}
