package org.siebog.rest;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;

/**
 * Writes to the audit log every API call that could change something (anything but GET, HEAD and
 * OPTIONS), whether it did or was refused for its role. Reads are not logged: they change nothing
 * and are most of the traffic.
 */
@Provider
public class AuditFilter implements ContainerResponseFilter {

    @Context
    HttpServletRequest http;

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String method = request.getMethod();
        if (method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS")) {
            return;
        }
        SecurityContext security = request.getSecurityContext();
        String user = security.getUserPrincipal() == null ? null : security.getUserPrincipal().getName();
        String path = request.getUriInfo().getRequestUri().getRawPath();
        if (response.getStatus() == 401 || response.getStatus() == 403) {
            AuditLog.refused(user, http.getRemoteAddr(), method, path, response.getStatus());
        } else {
            AuditLog.action(user, http.getRemoteAddr(), method, path, response.getStatus());
        }
    }
}
