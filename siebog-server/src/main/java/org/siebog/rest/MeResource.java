package org.siebog.rest;

import java.util.List;
import java.util.stream.Stream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/**
 * {@code GET /api/me}: who the caller is logged in as and which of Siebog's roles they hold, so a
 * client (the console) shows only what they may do; the API still decides on every call.
 */
@Path("me")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class MeResource {

    /** The caller: their user name and roles. */
    public record Me(String user, List<String> roles) {
    }

    @GET
    public Me me(@Context SecurityContext security) {
        return new Me(security.getUserPrincipal().getName(),
                Stream.of(Roles.VIEWER, Roles.USER, Roles.ADMIN).filter(security::isUserInRole).toList());
    }
}
