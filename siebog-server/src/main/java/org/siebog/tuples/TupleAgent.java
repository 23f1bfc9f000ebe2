package org.siebog.tuples;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.delivery.JsonActionAgent;
import org.siebog.delivery.PlatformAgent;
import org.siebog.message.JsonActions;

/**
 * The tuple space as a FIPA agent, {@code tuples@<platform>} (a {@link JsonActionAgent} on every
 * node), for every agent: Java agents through {@code org.siebog.api.Tuples}, client agents through
 * {@code this.tuples}. A REQUEST's content is a JSON action:
 * <pre>
 * {"action": "out", "fields": ["job", "7"], "leaseMs": 60000}       → INFORM {}          (leaseMs optional)
 * {"action": "rdp" | "inp", "template": ["job", null]}               → INFORM {"tuple": ["job", "7"] | null}
 * {"action": "rd" | "in", "template": ["job", null], "timeoutMs": 5000} → INFORM {"tuple": ... | null}  (null: none came in time)
 * </pre>
 * A waiting {@code rd} or {@code in} is answered when a tuple comes or its time is up, without
 * holding the agent's lane.
 */
@ApplicationScoped
public class TupleAgent implements PlatformAgent {

    /** The local name of the agent's AID; reserved: no agent may be started with it. */
    public static final String NAME = "tuples";
    static final String ONTOLOGY = "siebog-tuples";

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final String EXAMPLE = "{\"action\": \"rdp\", \"template\": [\"job\", null]}";


    @Inject
    TupleSpace space;


    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Agent create(AID aid) {
        return new Space(aid);
    }

    private final class Space extends JsonActionAgent {

        Space(AID aid) {
            super(aid, ONTOLOGY, "");
        }

        @Override
        protected CompletableFuture<String> act(ACLMessage request) {
            return actOn(request).thenApply(JsonObject::toString);
        }

        private CompletableFuture<JsonObject> actOn(ACLMessage request) {
            JsonObject action = JsonActions.parse(request.content(), EXAMPLE);
            String name = action.getString("action", "");
            return switch (name) {
                case "out" -> space.out(TupleSpace.fields(required(action, "fields"), "fields"), JsonActions.millis(action, "leaseMs"))
                        .thenApply(none -> JsonValue.EMPTY_JSON_OBJECT);
                case "rdp" -> CompletableFuture.completedFuture(tuple(space.rdp(template(action))));
                case "inp" -> space.inp(template(action)).thenApply(TupleAgent::tuple);
                case "rd" -> space.rd(template(action), required(JsonActions.millis(action, "timeoutMs"), "timeoutMs")).thenApply(TupleAgent::tuple);
                case "in" -> space.in(template(action), required(JsonActions.millis(action, "timeoutMs"), "timeoutMs")).thenApply(TupleAgent::tuple);
                default -> throw new JsonActions.NotUnderstood("\"action\" must be out, rd, in, rdp or inp; got '" + name + "'");
            };
        }
    }

    private static List<String> template(JsonObject action) {
        return TupleSpace.fields(required(action, "template"), "template");
    }

    private static JsonValue required(JsonObject action, String field) {
        JsonValue value = action.get(field);
        if (value == null) {
            throw new JsonActions.NotUnderstood("the action needs \"" + field + "\"");
        }
        return value;
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new JsonActions.NotUnderstood("the action needs \"" + field + "\" (milliseconds)");
        }
        return value;
    }

    private static JsonObject tuple(Optional<List<String>> found) {
        return JSON.createObjectBuilder().add("tuple", found.<JsonValue>map(f -> TupleSpace.array(f).build()).orElse(JsonValue.NULL)).build();
    }
}
