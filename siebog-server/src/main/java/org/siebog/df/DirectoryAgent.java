package org.siebog.df;

import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.ServiceTemplate;
import org.siebog.api.SiebogException;
import org.siebog.delivery.JsonActionAgent;
import org.siebog.delivery.PlatformAgent;
import org.siebog.message.JsonActions;

/**
 * The directory facilitator as a FIPA agent, {@code df@<platform>}, for agents that reach it by
 * message: client agents in browsers, and any agent in any language. Every node hosts one (a
 * {@link JsonActionAgent}), and all of them read and write the same replicated {@link ServiceDirectory}.
 *
 * <p>A REQUEST's content is a JSON action (language {@code json}, ontology {@code siebog-df}):
 * <pre>
 * {"action": "register",   "service": {...}, "leaseMs": 60000}   → INFORM {"entry": {...}}  (leaseMs optional)
 * {"action": "modify",     "service": {...}, "leaseMs": 60000}   → INFORM {"entry": {...}}
 * {"action": "deregister", "name": "books"}                       → INFORM {}
 * {"action": "search",     "template": {...}, "limit": 100, "after": {entry}} → INFORM {"entries": [...], "more": false}
 * {"action": "subscribe",  "template": {...}, "leaseMs": 60000}  → INFORM {"subscription": "df-subscription-..."}
 * {"action": "unsubscribe", "subscription": "df-subscription-..."} → INFORM {}
 * </pre>
 * A subscriber then gets an INFORM per change (see {@link org.siebog.api.DirectoryFacilitator#subscribe}).
 * Register, modify, deregister, subscribe and unsubscribe act for the message's sender. Writes are
 * answered when every node has them.
 */
@ApplicationScoped
public class DirectoryAgent implements PlatformAgent {

    /** The local name of the directory facilitator's AID; reserved: no agent may be started with it. */
    public static final String NAME = "df";
    static final String ONTOLOGY = "siebog-df";

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final int DEFAULT_LIMIT = 100;
    private static final String EXAMPLE = "{\"action\": \"search\", \"template\": {\"type\": \"...\"}}";


    @Inject
    ServiceDirectory services;

    @Inject
    ServiceSubscriptions subscriptions;


    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Agent create(AID aid) {
        return new Facilitator(aid);
    }

    private final class Facilitator extends JsonActionAgent {

        Facilitator(AID aid) {
            super(aid, ONTOLOGY, "an agent registers its own services");
        }

        @Override
        protected CompletableFuture<String> act(ACLMessage request) {
            JsonObject action = JsonActions.parse(request.content(), EXAMPLE);
            String name = action.getString("action", "");
            return name.equals("search") ? CompletableFuture.completedFuture(search(action))
                    : actOn(request, name, action).thenApply(JsonObject::toString);
        }

        /** Every action but search, whose answer is put together as text ({@link #search}). */
        private CompletableFuture<JsonObject> actOn(ACLMessage request, String name, JsonObject action) {
            return switch (name) {
                case "register", "modify" -> services.register(sender(request, name), ServiceJson.readService(JsonActions.object(action, "service")),
                        JsonActions.millis(action, "leaseMs"), name.equals("modify"))
                        .thenApply(entry -> JSON.createObjectBuilder().add("entry", ServiceJson.entry(entry)).build());
                case "deregister" -> services.deregister(sender(request, name), JsonActions.text(action, "name")).thenApply(none -> JsonValue.EMPTY_JSON_OBJECT);
                case "subscribe" -> subscriptions.subscribe(sender(request, name), template(action), JsonActions.millis(action, "leaseMs"))
                        .thenApply(id -> JSON.createObjectBuilder().add("subscription", id).build());
                case "unsubscribe" -> CompletableFuture.completedFuture(unsubscribe(sender(request, name), JsonActions.text(action, "subscription")));
                default -> throw new JsonActions.NotUnderstood("\"action\" must be register, modify, deregister, search, subscribe or unsubscribe; got '"
                        + name + "'");
            };
        }

        /**
         * The answer as text: each entry's JSON as this node's copy of the directory holds it, joined,
         * rather than an object built per entry (up to 100 an answer) only to be written out again.
         */
        private String search(JsonObject action) {
            JsonValue after = action.get("after");
            ServiceDirectory.Page found = services.search(template(action),
                    after == null || after == JsonValue.NULL ? null
                            : ServiceDirectory.keyOf(ServiceJson.readCursor(JsonActions.asObject("after", after))),
                    action.containsKey("limit") ? JsonActions.whole(action, "limit") : DEFAULT_LIMIT);
            return "{\"entries\":[" + String.join(",", found.json()) + "],\"more\":" + found.more() + "}";
        }
    }

    private JsonObject unsubscribe(AID subscriber, String id) {
        if (!subscriptions.unsubscribe(subscriber, id)) {
            throw new UnknownSubscriptionException(subscriber, id);
        }
        return JsonValue.EMPTY_JSON_OBJECT;
    }

    private static ServiceTemplate template(JsonObject action) {
        JsonValue template = action.get("template");
        return ServiceJson.readTemplate(template == null ? JsonValue.EMPTY_JSON_OBJECT : JsonActions.asObject("template", template));
    }

    /** 404: no such subscription of the sender (never made, ended, or its lease ran out). */
    private static final class UnknownSubscriptionException extends SiebogException {
        UnknownSubscriptionException(AID subscriber, String id) {
            super("agent " + subscriber + " has no subscription '" + id + "' to the directory");
        }

        @Override
        public int status() {
            return 404;
        }
    }
}
