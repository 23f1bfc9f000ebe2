package org.siebog.rest;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The security audit trail, in the server log under the category {@code org.siebog.audit}: failed
 * logins, refused requests and every call that changes something, each with the user, the address
 * it came from and (in the log line's own time stamp) when. Never a password: a failed login names
 * only the user part of the credentials it was given.
 */
final class AuditLog {

    private static final Logger LOG = Logger.getLogger("org.siebog.audit");
    private static final int MAX_NAME_CHARS = 64;

    private AuditLog() {
    }

    /** {@code path}: the one refused (the request's own URI is the error page's by now). */
    static void failedLogin(HttpServletRequest request, String path) {
        LOG.warning(() -> "failed login: user '" + claimedUser(request.getHeader("Authorization")) + "' from "
                + request.getRemoteAddr() + " on " + request.getMethod() + " " + path);
    }

    static void refused(String user, String address, String method, String path, int status) {
        LOG.warning(() -> "refused (" + status + "): user '" + printable(user) + "' from " + address + " on " + method + " " + path);
    }

    static void action(String user, String address, String method, String path, int status) {
        LOG.info(() -> "action: user '" + printable(user) + "' from " + address + ": " + method + " " + path + " -> " + status);
    }

    /** The user name of HTTP Basic credentials (never the password), or a note when there is none to read. */
    static String claimedUser(String authorization) {
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

    /** A name as it may stand in a log line: no control characters (no forged lines), at most 64 characters. */
    static String printable(String name) {
        if (name == null) {
            return "(anonymous)";
        }
        StringBuilder safe = new StringBuilder();
        name.codePoints().limit(MAX_NAME_CHARS).forEach(c -> safe.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return name.codePointCount(0, name.length()) > MAX_NAME_CHARS ? safe + "..." : safe.toString();
    }
}
