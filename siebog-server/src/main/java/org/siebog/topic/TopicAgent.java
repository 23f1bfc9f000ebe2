package org.siebog.topic;

import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.SiebogException;
import org.siebog.api.TopicSubscription;
import org.siebog.delivery.JsonActionAgent;
import org.siebog.delivery.PlatformAgent;
import org.siebog.message.JsonActions;

/**
 * Topic subscriptions as a FIPA agent, {@code topics@<platform>}, for agents that reach them by
 * message: client agents in browsers, and any agent in any language (a {@link JsonActionAgent} on
 * every node). Each action acts for the message's sender:
 * <pre>
 * {"action": "subscribe", "topic": "news", "group": "workers"}  → INFORM {}   (group optional)
 * {"action": "unsubscribe", "topic": "news"}                     → INFORM {}, or FAILURE 404 when not subscribed
 * {"action": "subscriptions"}                                    → INFORM {"subscriptions": [{"topic": "news", "group": "workers"}]}
 * </pre>
 * Publishing needs no action: a message to {@code topic:news@<platform>} is published.
 */
@ApplicationScoped
public class TopicAgent implements PlatformAgent {

    /** The local name of the agent's AID; reserved: no agent may be started with it. */
    public static final String NAME = "topics";
    static final String ONTOLOGY = "siebog-topics";

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final String EXAMPLE = "{\"action\": \"subscribe\", \"topic\": \"news\"}";


    @Inject
    TopicSubscriptions subscriptions;


    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Agent create(AID aid) {
        return new Subscriptions(aid);
    }

    private final class Subscriptions extends JsonActionAgent {

        Subscriptions(AID aid) {
            super(aid, ONTOLOGY, "an agent subscribes itself");
        }

        @Override
        protected CompletableFuture<String> act(ACLMessage request) {
            return actOn(request).thenApply(JsonObject::toString);
        }

        private CompletableFuture<JsonObject> actOn(ACLMessage request) {
            JsonObject action = JsonActions.parse(request.content(), EXAMPLE);
            String name = action.getString("action", "");
            return switch (name) {
                case "subscribe" -> subscriptions.subscribe(sender(request, name), JsonActions.text(action, "topic"),
                        JsonActions.optionalText(action, "group")).thenApply(none -> JsonValue.EMPTY_JSON_OBJECT);
                case "unsubscribe" -> {
                    AID subscriber = sender(request, name);
                    String topic = JsonActions.text(action, "topic");
                    yield subscriptions.unsubscribe(subscriber, topic).thenApply(had -> {
                        if (!had) {
                            throw new NotSubscribedException(subscriber, topic);
                        }
                        return JsonValue.EMPTY_JSON_OBJECT;
                    });
                }
                case "subscriptions" -> CompletableFuture.completedFuture(list(sender(request, name)));
                default -> throw new JsonActions.NotUnderstood("\"action\" must be subscribe, unsubscribe or subscriptions; got '" + name + "'");
            };
        }
    }

    private JsonObject list(AID subscriber) {
        JsonArrayBuilder list = JSON.createArrayBuilder();
        for (TopicSubscription s : subscriptions.subscriptionsOf(subscriber)) {
            JsonObjectBuilder one = JSON.createObjectBuilder().add("topic", s.topic());
            if (s.group() != null) {
                one.add("group", s.group());
            }
            list.add(one);
        }
        return JSON.createObjectBuilder().add("subscriptions", list).build();
    }

    /** 404: the agent does not subscribe to the topic. */
    static final class NotSubscribedException extends SiebogException {
        NotSubscribedException(AID agent, String topic) {
            super("agent " + agent + " does not subscribe to topic '" + topic + "'");
        }

        @Override
        public int status() {
            return 404;
        }
    }
}
