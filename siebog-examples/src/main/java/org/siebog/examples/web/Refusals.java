package org.siebog.examples.web;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.security.RolesAllowed;
import jakarta.json.JsonException;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import org.siebog.api.SiebogException;

/**
 * Every failure of the examples' REST resources as Siebog's API answers one, {@code {"error": "..."}}
 * with its status: the platform's refusals with theirs ({@link SiebogException#status()}), a role that
 * may not call a method told which role it needs, unparsable JSON as 400, JAX-RS's own with their
 * status, anything else as a logged 500.
 */
@Provider
public class Refusals implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(Refusals.class.getName());

    @Context
    ResourceInfo resource;

    @Override
    public Response toResponse(Throwable thrown) {
        SiebogException refusal = find(thrown, SiebogException.class);
        if (refusal != null) {
            return error(refusal.status(), refusal.getMessage());
        }
        if (thrown instanceof ForbiddenException) {
            return error(403, rolesNeeded());
        }
        if (thrown instanceof WebApplicationException web && find(thrown, JsonException.class) == null) {
            Response.StatusType status = web.getResponse().getStatusInfo();
            return error(status.getStatusCode(), status.getStatusCode() == 404
                    ? "no such resource; the examples' API is under /siebog-examples/api (sender-receiver/runs)"
                    : status.getReasonPhrase());
        }
        JsonException badJson = find(thrown, JsonException.class);
        if (badJson != null || thrown instanceof ProcessingException) {
            return error(400, "the request body is not valid JSON: " + (badJson != null ? badJson.getMessage() : thrown.getMessage()));
        }
        LOG.log(Level.SEVERE, "request failed", thrown);
        return error(500, "internal error: " + thrown);
    }

    private String rolesNeeded() {
        Method method = resource == null ? null : resource.getResourceMethod();
        RolesAllowed roles = method == null ? null : method.getAnnotation(RolesAllowed.class);
        if (roles == null && method != null) {
            roles = resource.getResourceClass().getAnnotation(RolesAllowed.class);
        }
        return roles == null
                ? "your account's roles do not allow this request"
                : "this request needs the role " + String.join(" or ", roles.value()) + ", which your account does not have";
    }

    private static Response error(int status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(Map.of("error", message)).build();
    }

    private static <T extends Throwable> T find(Throwable thrown, Class<T> type) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
