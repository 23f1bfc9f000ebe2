package org.siebog.examples.web;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;

/**
 * Siebog's audit log ({@code org.siebog.audit}, docs/security.md) for the examples' API: every call that
 * could change something (a run started) or was refused, and every failed login, in the lines Siebog's
 * own API writes. Reads are not logged. Never a password.
 */
@Provider
public class Audit implements ContainerResponseFilter {

    private static final Logger LOG = Logger.getLogger("org.siebog.audit");
    private static final int MAX_NAME_CHARS = 64;

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
            refused(user, http.getRemoteAddr(), method, path, response.getStatus());
        } else {
            LOG.info(() -> "action: user '" + printable(user) + "' from " + http.getRemoteAddr() + ": " + method + " " + path
                    + " -> " + response.getStatus());
        }
    }

    static void failedLogin(HttpServletRequest request, String path) {
        LOG.warning(() -> "failed login: user '" + claimedUser(request.getHeader("Authorization")) + "' from "
                + request.getRemoteAddr() + " on " + request.getMethod() + " " + path);
    }

    static void refused(String user, String address, String method, String path, int status) {
        LOG.warning(() -> "refused (" + status + "): user '" + printable(user) + "' from " + address + " on " + method + " " + path);
    }

    /** The user name of HTTP Basic credentials, never the password. */
    private static String claimedUser(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return "(not HTTP Basic)";
        }
        try {
            String credentials = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = credentials.indexOf(':');
            return colon < 0 ? "(unreadable)" : printable(credentials.substring(0, colon));
        } catch (IllegalArgumentException e) {
            return "(unreadable)";
        }
    }

    /** No control characters (no forged lines), at most 64 characters. */
    private static String printable(String name) {
        if (name == null) {
            return "(anonymous)";
        }
        StringBuilder safe = new StringBuilder();
        name.codePoints().limit(MAX_NAME_CHARS).forEach(c -> safe.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return name.codePointCount(0, name.length()) > MAX_NAME_CHARS ? safe + "..." : safe.toString();
    }
}
