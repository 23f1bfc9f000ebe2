package org.siebog.rest;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;

/**
 * Writes to the audit log every refused call (401, 403) and every admin action: a call that only
 * {@code siebog-admin} may make (agent lifecycle), or one that used an admin's power (a message in
 * an agent's name, marked by {@link #adminAction}). A user's message that speaks for no agent is
 * traffic, not an action: logging each would cost a line per message on the message path.
 */
@Provider
public class AuditFilter implements ContainerResponseFilter {

    private static final String ADMIN_ACTION = AuditFilter.class.getName() + ".adminAction";

    @Context
    HttpServletRequest http;

    @Context
    ResourceInfo resource;

    /** Marks this request as one that used an admin's power, which the log then records. */
    static void adminAction(HttpServletRequest request) {
        request.setAttribute(ADMIN_ACTION, Boolean.TRUE);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        int status = response.getStatus();
        boolean refused = status == 401 || status == 403;
        String method = request.getMethod();
        // A read that went through changes nothing: most requests stop here, before any look at roles.
        if (!refused && (isRead(method) || !isAdminAction())) {
            return;
        }
        SecurityContext security = request.getSecurityContext();
        String user = security.getUserPrincipal() == null ? null : security.getUserPrincipal().getName();
        String path = request.getUriInfo().getRequestUri().getRawPath();
        if (refused) {
            AuditLog.refused(user, http.getRemoteAddr(), method, path, status);
        } else {
            AuditLog.action(user, http.getRemoteAddr(), method, path, status);
        }
    }

    private static boolean isRead(String method) {
        return method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS");
    }

    private boolean isAdminAction() {
        return http.getAttribute(ADMIN_ACTION) != null || Roles.allowed(resource).equals(List.of(Roles.ADMIN));
    }
}
