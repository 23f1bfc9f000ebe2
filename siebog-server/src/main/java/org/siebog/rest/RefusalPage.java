package org.siebog.rest;

import java.io.IOException;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The body of the container's own refusals under {@code /api} (web.xml's error pages): 401 when no
 * or wrong credentials came, 403 for an account with none of Siebog's roles. The container has set
 * the status and, for 401, the {@code WWW-Authenticate} challenge; this adds the contract's
 * {@code {"error": "..."}} and writes the attempt to the audit log.
 */
@WebServlet(urlPatterns = "/refused", loadOnStartup = 1) // started with the application: its counter is scraped from the start
public class RefusalPage extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient MeterRegistry meters;

    private transient Counter failedLogins;

    @Override
    public void init() {
        failedLogins = Counter.builder("siebog.auth.failures").description("API requests whose credentials were wrong").register(meters);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer c ? c : 404;
        String path = String.valueOf(request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI));
        boolean gaveCredentials = request.getHeader("Authorization") != null;
        String message;
        if (status == 401 && gaveCredentials) {
            AuditLog.failedLogin(request, path);
            failedLogins.increment();
            message = "the user name or password is wrong";
        } else if (status == 401) {
            message = "this needs a login: send HTTP Basic credentials of a Siebog account (docs/security.md)";
        } else if (status == 403) {
            AuditLog.refused(request.getRemoteUser(), request.getRemoteAddr(), request.getMethod(), path, status);
            message = "your account has none of Siebog's roles (siebog-viewer, siebog-user, siebog-admin)";
        } else {
            status = 404;
            message = "no such resource; the API is under /siebog/api (agents, agent-classes, messages, nodes, devices)";
        }
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(Json.createObjectBuilder().add("error", message).build().toString());
    }
}
