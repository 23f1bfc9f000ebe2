package org.siebog.rest;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.siebog.api.ACLMessage;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.MessageManager;
import org.siebog.message.ACLMessageJson;
import org.siebog.platform.PlatformConfig;

/**
 * {@code POST /api/messages}: an ACL message in the contract's JSON form; 202 once admitted. With
 * {@code ?awaitReplyMs=N}: 200 and the first answer (sent to a temporary {@code replyTo}), or 504.
 * Users post messages in no agent's name; only admins may name a {@code sender}, since a receiver
 * trusts the sender of what it handles as much as the platform does. With an
 * {@code Idempotency-Key} header, posting the same message again under the same key, through any
 * node, has each stateful receiver handle it once ({@link IdempotentPosts}).
 */
@Path("messages")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.USER, Roles.ADMIN})
public class MessageResource {

    @EJB
    MessageManager messages;

    @Inject
    IdempotentPosts keyed;

    @Context
    HttpServletRequest http;

    /**
     * {@code ?delayMs=N} posts the message N milliseconds from now. The request holds no server
     * thread while it waits for admission or a reply: a receiver whose node has just died keeps
     * its senders waiting until a survivor has taken it over, and they must not starve the other
     * requests of worker threads meanwhile.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public CompletionStage<Response> post(JsonObject body, @QueryParam("delayMs") String delayMs,
            @QueryParam("awaitReplyMs") String awaitReplyMs, @HeaderParam(IdempotencyKey.HEADER) List<String> idempotencyKeys,
            @Context SecurityContext caller) {
        if (body == null) {
            throw new MalformedMessageException("the request needs an ACL message as its JSON body");
        }
        IdempotencyKey key = IdempotencyKey.of(caller.getUserPrincipal().getName(), idempotencyKeys);
        // Taken as text: JAX-RS answers an unconvertible Long parameter with a bare 404.
        PlatformConfig limits = PlatformConfig.SYSTEM;
        Duration delay = delayMs == null ? null : millis("delayMs", delayMs, limits.maxDelayMillis(), "siebog.message.max-delay-ms");
        Duration await = awaitReplyMs == null ? null
                : millis("awaitReplyMs", awaitReplyMs, limits.maxAwaitReplyMillis(), "siebog.message.max-await-reply-ms");
        if (delay != null && await != null) {
            throw new MalformedMessageException("delayMs and awaitReplyMs cannot be combined");
        }
        if (key != null && (delay != null || await != null)) {
            // A delayed post waits in one node's timer, which a repeat through another node knows nothing of; an
            // ask's answer goes to a new inbox at each post, and a receiver that drops the repeat answers none.
            throw new MalformedMessageException("an " + IdempotencyKey.HEADER + " cannot be combined with "
                    + (delay != null ? "delayMs" : "awaitReplyMs") + ": post the message without one or the other");
        }
        ACLMessage message = ACLMessageJson.fromJson(body);
        if (message.sender() != null) {
            if (!caller.isUserInRole(Roles.ADMIN)) {
                throw new SenderNotAllowedException(message.sender());
            }
            AuditFilter.adminAction(http);
        }
        if (key != null) {
            return keyed.post(key, message).thenApply(admitted -> Response.accepted().build());
        }
        if (await != null) {
            return messages.askAsync(message, await).thenApply(reply -> Response.ok(ACLMessageJson.write(reply)).build());
        }
        if (delay != null) {
            messages.post(message, delay);
            return CompletableFuture.completedFuture(Response.accepted().build());
        }
        return messages.postAsync(message).thenApply(admitted -> Response.accepted().build());
    }

    private static Duration millis(String parameter, String text, long max, String property) {
        try {
            long millis = Long.parseLong(text);
            if (millis >= 0 && millis <= max) {
                return Duration.ofMillis(millis);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        String shown = text.length() > 30 ? text.substring(0, 30) + "..." : text;
        throw new MalformedMessageException(parameter + " must be a whole number of milliseconds from 0 to " + max
                + " (" + property + "); got '" + shown + "'");
    }
}
