package org.siebog.rest;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;
import org.siebog.df.ServiceDirectory;
import org.siebog.df.ServiceJson;

/**
 * {@code GET /api/services}: the directory facilitator's entries, for every role. The query is a
 * template ({@code type}, {@code name}, and repeatable {@code protocol}, {@code ontology},
 * {@code language}, {@code property=key=value}); the answer is a page in the directory's order
 * (agent, then service name), {@value #DEFAULT_LIMIT} entries unless {@code limit} says otherwise
 * (1 to 1,000), with a {@code Link} to the next page ({@link Paging}).
 */
@Path("services")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class ServiceResource {

    static final int DEFAULT_LIMIT = 100;

    @Inject
    ServiceDirectory services;

    @GET
    public Response search(@QueryParam("type") String type, @QueryParam("name") String name,
            @QueryParam("protocol") List<String> protocols, @QueryParam("ontology") List<String> ontologies,
            @QueryParam("language") List<String> languages, @QueryParam("property") List<String> properties,
            @QueryParam("limit") String limitText, @QueryParam("after") String after, @Context UriInfo uri) {
        int limit = limitText == null ? DEFAULT_LIMIT : Paging.limit(limitText);
        ServiceTemplate template = new ServiceTemplate(type, name, Set.copyOf(protocols), Set.copyOf(ontologies), Set.copyOf(languages),
                properties(properties));
        ServiceDirectory.Page found = services.search(template, Paging.afterKey(after), limit);
        List<ServiceEntry> entries = found.entries();
        String next = found.more() ? Paging.cursor(ServiceDirectory.keyOf(entries.get(entries.size() - 1))) : null;
        return Paging.response(new Paging.Page<>(entries.stream().map(ServiceJson::entry).toList(), next), uri);
    }

    private static Map<String, String> properties(List<String> pairs) {
        Map<String, String> properties = new TreeMap<>();
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            if (equals < 1) {
                throw new Paging.BadQueryException("'property' must be key=value, got '" + (pair.length() > 40 ? pair.substring(0, 40) + "..." : pair) + "'");
            }
            properties.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return properties;
    }
}
