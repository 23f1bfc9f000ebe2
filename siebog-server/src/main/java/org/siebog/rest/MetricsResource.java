package org.siebog.rest;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * {@code GET /api/metrics}: this node's meters in Prometheus' text format (docs/admin.md,
 * "Metrics"), for any role, as every other read is; Prometheus logs in with {@code basic_auth}.
 * Each node serves its own: scrape every node.
 */
@Path("metrics")
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class MetricsResource {

    @Inject
    PrometheusMeterRegistry registry;

    @GET
    @Produces("text/plain; version=0.0.4; charset=utf-8")
    public String scrape() {
        return registry.scrape();
    }
}
