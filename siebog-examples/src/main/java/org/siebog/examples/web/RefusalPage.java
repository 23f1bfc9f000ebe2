package org.siebog.examples.web;

import java.io.IOException;

import jakarta.json.Json;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The body of the container's own refusals under {@code /api} (web.xml's error pages), as Siebog's API
 * words them: 401 when no or wrong credentials came (the container has set the Basic challenge), 403
 * for an account with none of Siebog's roles. Both go to the audit log.
 */
@WebServlet("/refused")
public class RefusalPage extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer c ? c : 404;
        String path = String.valueOf(request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI));
        String message;
        if (status == 401 && request.getHeader("Authorization") != null) {
            Audit.failedLogin(request, path);
            message = "the user name or password is wrong";
        } else if (status == 401) {
            message = "this needs a login: send HTTP Basic credentials of a Siebog account (docs/security.md)";
        } else if (status == 403) {
            Audit.refused(request.getRemoteUser(), request.getRemoteAddr(), request.getMethod(), path, status);
            message = "your account has none of Siebog's roles (siebog-viewer, siebog-user, siebog-admin)";
        } else {
            status = 404;
            message = "no such resource; the examples' API is under /siebog-examples/api (sender-receiver/runs)";
        }
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(Json.createObjectBuilder().add("error", message).build().toString());
    }
}
