package org.siebog.rest;

import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.siebog.topic.TopicSubscriptions;

/**
 * {@code GET /api/topics} (every topic with subscribers, and how many) and
 * {@code GET /api/topics/{topic}} (its subscribers, by agent), for every role; both paged as
 * {@code GET /api/agents} is ({@link Paging}). Publishing is {@code POST /api/messages} to
 * {@code topic:<name>@<platform>}.
 */
@Path("topics")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.USER, Roles.ADMIN})
public class TopicResource {

    @Inject
    TopicSubscriptions topics;

    /** One topic in the listing. */
    public record TopicView(String topic, int subscribers) {
    }

    /** One subscription of a topic ({@code group} absent: the agent gets every message). */
    public record SubscriberView(String agent, String group) {
    }

    @GET
    public Response list(@QueryParam("limit") String limit, @QueryParam("after") String after, @Context UriInfo uri) {
        Map<String, Integer> all = topics.topics();
        return Paging.response(Paging.of(all.entrySet().stream().map(e -> new TopicView(e.getKey(), e.getValue())), TopicView::topic,
                limit, after), uri);
    }

    /** A topic with no subscribers is listed empty, not 404: topics exist while agents subscribe. */
    @GET
    @Path("{topic}")
    public Response subscribers(@PathParam("topic") String topic, @QueryParam("limit") String limit, @QueryParam("after") String after,
            @Context UriInfo uri) {
        return Paging.response(Paging.of(topics.subscribers(topic).stream().map(s -> new SubscriberView(s.agent().toString(), s.group())),
                SubscriberView::agent, limit, after), uri);
    }
}
