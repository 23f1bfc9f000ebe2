package org.siebog.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;

import jakarta.json.Json;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Refuses the device socket's handshake from pages of other origins ({@link OriginPolicy}) with 403
 * and the JSON error body of the REST API. A filter rather than the endpoint configurator's
 * {@code checkOrigin}: Undertow answers a refused {@code checkOrigin} as if there were no endpoint
 * (404), and the configurator is not told the request's {@code Host}, which the node's own origin
 * comes from. Declared filters run before Undertow's WebSocket upgrade filter.
 */
@WebFilter(urlPatterns = "/ws/device", asyncSupported = true)
public class DeviceOriginFilter extends HttpFilter {

    private static final Logger LOG = Logger.getLogger(DeviceOriginFilter.class.getName());
    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String origin = request.getHeader("Origin");
        if (OriginPolicy.current().admits(origin, request.getScheme(), request.getHeader("Host"))) {
            chain.doFilter(request, response);
            return;
        }
        String quoted = DeviceFrames.quote(origin, DeviceFrames.QUOTED_CHARS);
        LOG.fine(() -> "refused a device handshake from origin '" + quoted + "' (" + request.getRemoteAddr() + ")");
        byte[] body = Json.createObjectBuilder()
                .add("error", "pages from origin '" + quoted + "' may not join as devices: only this node's own pages and the origins in "
                        + OriginPolicy.PROPERTY + " may")
                .build().toString().getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType("application/json;charset=UTF-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
