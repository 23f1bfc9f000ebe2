package org.siebog.df;

import java.io.StringReader;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentContext;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.Performative;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.ServiceTemplate;
import org.siebog.api.SiebogException;
import org.siebog.delivery.AgentHost;
import org.siebog.platform.Failures;
import org.siebog.platform.PlatformConfig;

/**
 * The directory facilitator as a FIPA agent, {@code df@<platform>}, for agents that reach it by
 * message: client agents in browsers, and any agent in any language. Every node hosts one, in no
 * directory (like a reply inbox), so a message to it is handled on the sender's node, and all of
 * them read and write the same replicated {@link ServiceDirectory}.
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
 * Register, modify, deregister, subscribe and unsubscribe act for the message's sender. A refusal is a FAILURE
 * {@code {"status": 404, "error": "..."}} (the statuses of the REST API); content that is not such
 * an action, or another performative, is NOT_UNDERSTOOD with the same shape. Writes are answered
 * when every node has them, without holding the agent's lane meanwhile.
 */
@ApplicationScoped
public class DirectoryAgent {

    /** The local name of the directory facilitator's AID; reserved: no agent may be started with it. */
    public static final String NAME = "df";
    static final String ONTOLOGY = "siebog-df";

    private static final Logger LOG = Logger.getLogger(DirectoryAgent.class.getName());
    private static final JsonProvider JSON = JsonProvider.provider();
    private static final int DEFAULT_LIMIT = 100;

    @Inject
    AgentHost host;

    @Inject
    ServiceDirectory services;

    @Inject
    ServiceSubscriptions subscriptions;

    private AID aid;

    /** Hosted when the application starts, so every node answers as {@code df} from then on. */
    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        aid = new AID(NAME, PlatformConfig.SYSTEM.platformName());
        host.host(aid, new Facilitator()).activate();
    }

    @PreDestroy
    void stop() {
        if (aid != null) {
            host.stop(aid, () -> { });
        }
    }

    private final class Facilitator implements Agent {

        @Override
        public void handle(AgentContext context, ACLMessage request) {
            if (request.sender() == null && request.replyTo() == null) {
                LOG.fine(() -> "df: a message with no sender and no replyTo has no one to answer: " + request);
                return;
            }
            CompletableFuture<JsonObject> result;
            try {
                result = act(request);
            } catch (NotUnderstood e) {
                answer(context, request, Performative.NOT_UNDERSTOOD, failure(400, e.getMessage()));
                return;
            } catch (SiebogException refused) {
                answer(context, request, Performative.FAILURE, failure(refused.status(), refused.getMessage()));
                return;
            }
            result.whenComplete((json, failed) -> {
                if (failed == null) {
                    answer(context, request, Performative.INFORM, json);
                } else {
                    SiebogException refused = Failures.refusal(failed, cause -> new RemoteNodeException("the directory could not be written: " + cause));
                    answer(context, request, Performative.FAILURE, failure(refused.status(), refused.getMessage()));
                }
            });
        }

        private CompletableFuture<JsonObject> act(ACLMessage request) {
            if (request.performative() != Performative.REQUEST) {
                throw new NotUnderstood("df understands REQUESTs only, got " + request.performative());
            }
            JsonObject action = parse(request.content());
            String name = action.getString("action", "");
            return switch (name) {
                case "register", "modify" -> services.register(sender(request, name), ServiceJson.readService(object(action, "service")),
                        lease(action), name.equals("modify")).thenApply(entry -> JSON.createObjectBuilder().add("entry", ServiceJson.entry(entry)).build());
                case "deregister" -> services.deregister(sender(request, name), text(action, "name")).thenApply(none -> JsonValue.EMPTY_JSON_OBJECT);
                case "search" -> CompletableFuture.completedFuture(search(action));
                case "subscribe" -> subscriptions.subscribe(sender(request, name), template(action), lease(action))
                        .thenApply(id -> JSON.createObjectBuilder().add("subscription", id).build());
                case "unsubscribe" -> CompletableFuture.completedFuture(unsubscribe(sender(request, name), text(action, "subscription")));
                default -> throw new NotUnderstood("\"action\" must be register, modify, deregister, search, subscribe or unsubscribe; got '"
                        + name + "'");
            };
        }

        private JsonObject search(JsonObject action) {
            JsonValue after = action.get("after");
            ServiceDirectory.Page found = services.search(template(action),
                    after == null || after == JsonValue.NULL ? null : ServiceDirectory.keyOf(ServiceJson.readCursor(asObject("after", after))),
                    action.containsKey("limit") ? whole(action, "limit") : DEFAULT_LIMIT);
            return JSON.createObjectBuilder().add("entries", ServiceJson.entries(found.entries())).add("more", found.more()).build();
        }

        private void answer(AgentContext context, ACLMessage request, Performative performative, JsonObject content) {
            try {
                context.send(request.reply(performative).sender(aid).language("json").ontology(ONTOLOGY).content(content.toString()).build());
            } catch (SiebogException e) {
                LOG.log(Level.INFO, "df could not answer {0}: {1}", new Object[] {request.sender(), e.getMessage()});
            }
        }

        @Override
        public void start(AgentContext context, Map<String, String> args) {
        }

        @Override
        public void stop(AgentContext context) {
        }

        @Override
        public byte[] saveState() {
            return new byte[0]; // the directory is in its cache, not in the agent
        }

        @Override
        public void restoreState(AgentContext context, byte[] state) {
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
        return ServiceJson.readTemplate(template == null ? JsonValue.EMPTY_JSON_OBJECT : asObject("template", template));
    }

    private static AID sender(ACLMessage request, String action) {
        if (request.sender() == null) {
            throw new InvalidAgentRequestException(action + " acts for the message's sender: an agent registers its own services");
        }
        return request.sender();
    }

    private static JsonObject parse(String content) {
        if (content == null) {
            throw new NotUnderstood("the content must be a JSON action, e.g. {\"action\": \"search\", \"template\": {\"type\": \"...\"}}");
        }
        try {
            return JSON.createReader(new StringReader(content)).readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new NotUnderstood("the content is not a JSON object: " + e.getMessage());
        }
    }

    private static JsonObject object(JsonObject action, String field) {
        JsonValue value = action.get(field);
        if (value == null) {
            throw new NotUnderstood("the action needs \"" + field + "\"");
        }
        return asObject(field, value);
    }

    private static JsonObject asObject(String field, JsonValue value) {
        if (!(value instanceof JsonObject object)) {
            throw new NotUnderstood("\"" + field + "\" must be an object");
        }
        return object;
    }

    private static String text(JsonObject action, String field) {
        try {
            return action.getString(field);
        } catch (NullPointerException | ClassCastException e) {
            throw new NotUnderstood("the action needs \"" + field + "\" as a string");
        }
    }

    private static int whole(JsonObject action, String field) {
        if (!(action.get(field) instanceof JsonNumber number) || !number.isIntegral()) {
            throw new NotUnderstood("\"" + field + "\" must be a whole number");
        }
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, number.longValue()));
    }

    private static Duration lease(JsonObject action) {
        JsonValue value = action.get("leaseMs");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonNumber number) || !number.isIntegral()) {
            throw new NotUnderstood("\"leaseMs\" must be a whole number of milliseconds");
        }
        return Duration.ofMillis(number.longValue());
    }

    private static JsonObject failure(int status, String error) {
        return JSON.createObjectBuilder().add("status", status).add("error", error).build();
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

    /** Content df cannot read: answered NOT_UNDERSTOOD (400), nothing done. */
    private static final class NotUnderstood extends InvalidAgentRequestException {
        NotUnderstood(String message) {
            super(message);
        }
    }
}
