package org.siebog.rest;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Response.Status;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import org.infinispan.commons.IllegalLifecycleStateException;
import org.siebog.api.BacklogFullException;
import org.siebog.api.MailboxFullException;
import org.siebog.api.SiebogException;
import org.siebog.cluster.ClusterNode;
import org.siebog.platform.Failures;

/**
 * Turns every failure into the contract's {@code {"error": "..."}} with the fitting status: the
 * platform's refusals by type, unparsable JSON as 400, JAX-RS's own (unknown path, wrong method or
 * media type) with their status, anything else as a logged 500.
 */
@Provider
public class ErrorMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(ErrorMapper.class.getName());

    /** The resource method the failed request was matched to (if any): it says which roles it takes. */
    @Context
    ResourceInfo resource;

    @Inject
    ClusterNode cluster;

    @Override
    public Response toResponse(Throwable thrown) {
        SiebogException refusal = Failures.find(thrown, SiebogException.class);
        if (refusal != null) {
            Response.ResponseBuilder response = error(refusal.status(), refusal.getMessage());
            if (refusal instanceof MailboxFullException || refusal instanceof BacklogFullException) {
                response.header("Retry-After", "1");
            }
            return response.build();
        }
        if (Failures.find(thrown, IllegalLifecycleStateException.class) != null) {
            // This node dropped its copies of the cluster's caches, and takes them again as it rejoins (docs/cluster.md, "Rejoining").
            return error(503, cluster.lease().refusal().getMessage()).header("Retry-After", "1").build();
        }
        if (thrown instanceof ForbiddenException) {
            return error(403, rolesNeeded()).build();
        }
        if (thrown instanceof WebApplicationException web && Failures.find(thrown, JsonException.class) == null) {
            Response original = web.getResponse();
            return error(original.getStatus(), describe(original.getStatusInfo(), web)).build();
        }
        JsonException badJson = Failures.find(thrown, JsonException.class);
        if (badJson != null || thrown instanceof ProcessingException) {
            String detail = badJson != null ? badJson.getMessage() : thrown.getMessage();
            return error(Status.BAD_REQUEST.getStatusCode(), "the request body is not valid JSON: " + detail).build();
        }
        LOG.log(Level.SEVERE, "request failed", thrown);
        return error(Status.INTERNAL_SERVER_ERROR.getStatusCode(), "internal error: " + thrown).build();
    }

    /** RESTEasy's role check says only "403 Forbidden": name the roles the resource method takes. */
    private String rolesNeeded() {
        List<String> roles = Roles.allowed(resource);
        return roles.isEmpty()
                ? "your account's roles do not allow this request"
                : "this request needs the role " + String.join(" or ", roles) + ", which your account does not have";
    }

    private static String describe(Response.StatusType status, WebApplicationException e) {
        String reason = status.getReasonPhrase();
        return switch (status.getStatusCode()) {
            case 404 -> "no such resource; the API is under /siebog/api (agents, agent-classes, messages, nodes, devices)";
            case 405 -> "method not allowed on this resource";
            case 415 -> "send the body as application/json";
            default -> reason + (e.getMessage() != null ? ": " + e.getMessage() : "");
        };
    }

    private static Response.ResponseBuilder error(int status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(new ErrorView(message));
    }
}
