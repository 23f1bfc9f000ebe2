package org.siebog.api;

import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A Linda tuple space shared by the whole platform, for agents: {@code out} writes a tuple (a list
 * of strings) with an optional lease; {@code rdp} and {@code inp} read or take a tuple that matches
 * a template now, if there is one; {@code rd} and {@code in} wait for one up to a timeout. A
 * template is a list of the same length whose {@code null} fields match any value. A tuple is
 * taken once, whichever nodes race for it; a waiting {@code rd} or {@code in} holds no thread, and
 * its stage completes on the agent's own thread, between its messages, as an {@link AbstractAgent#ask
 * ask}'s does.
 *
 * <pre>{@code
 * Tuples.out(this, List.of("job", "7", "resize"), Duration.ofMinutes(10));
 * Tuples.in(this, Arrays.asList("job", null, null), Duration.ofSeconds(30))
 *         .thenAccept(job -> job.ifPresent(fields -> work(fields.get(1), fields.get(2))));
 * }</pre>
 *
 * <p>It asks the FIPA agent {@code tuples@<platform>}, which every node hosts; client agents use the
 * same space through {@code this.tuples}. Bounds (a {@link SiebogException} with status 400 or 503
 * fails the stage): 1 to 16 fields of 4,096 characters together, a lease from 1 ms to a day, at
 * most {@code siebog.tuples.max-tuples} tuples in the space and {@code siebog.tuples.max-waiting}
 * waiting readers and takers per node.
 */
public final class Tuples {

    /** The local name of the tuple space's agent. */
    public static final String AGENT = "tuples";
    /** How much longer than a wait the question to the space's agent waits, for its answer to travel. */
    private static final Duration MARGIN = Duration.ofSeconds(10);

    private Tuples() {
    }

    /**
     * Writes a tuple; completes once every node has it.
     *
     * @param agent  the writer
     * @param fields the tuple: 1 to 16 strings, none null
     * @param lease  how long it stays unless taken, or null for as long as no one takes it
     * @return completes when written
     */
    public static CompletionStage<Void> out(AbstractAgent agent, List<String> fields, Duration lease) {
        JsonObjectBuilder action = Json.createObjectBuilder().add("action", "out").add("fields", array(fields));
        if (lease != null) {
            action.add("leaseMs", lease.toMillis());
        }
        return act(agent, action.build(), MARGIN).thenApply(answer -> null);
    }

    /**
     * A tuple that matches {@code template} now, left in the space.
     *
     * @param agent    the reader
     * @param template the template: null fields match anything
     * @return the tuple, or empty when none matches
     */
    public static CompletionStage<Optional<List<String>>> rdp(AbstractAgent agent, List<String> template) {
        return find(agent, "rdp", template, null);
    }

    /**
     * Takes a tuple that matches {@code template} now.
     *
     * @param agent    the taker
     * @param template the template: null fields match anything
     * @return the tuple taken, or empty when none matches
     */
    public static CompletionStage<Optional<List<String>>> inp(AbstractAgent agent, List<String> template) {
        return find(agent, "inp", template, null);
    }

    /**
     * Reads a tuple that matches {@code template}, waiting up to {@code timeout} for one.
     *
     * @param agent    the reader
     * @param template the template: null fields match anything
     * @param timeout  how long to wait, at most {@code siebog.message.max-await-reply-ms}
     * @return the tuple, or empty when none came in time
     */
    public static CompletionStage<Optional<List<String>>> rd(AbstractAgent agent, List<String> template, Duration timeout) {
        return find(agent, "rd", template, timeout);
    }

    /**
     * Takes a tuple that matches {@code template}, waiting up to {@code timeout} for one.
     *
     * @param agent    the taker
     * @param template the template: null fields match anything
     * @param timeout  how long to wait, at most {@code siebog.message.max-await-reply-ms}
     * @return the tuple taken, or empty when none came in time
     */
    public static CompletionStage<Optional<List<String>>> in(AbstractAgent agent, List<String> template, Duration timeout) {
        return find(agent, "in", template, timeout);
    }

    private static CompletionStage<Optional<List<String>>> find(AbstractAgent agent, String name, List<String> template, Duration timeout) {
        JsonObjectBuilder action = Json.createObjectBuilder().add("action", name).add("template", array(template));
        if (timeout != null) {
            action.add("timeoutMs", timeout.toMillis());
        }
        return act(agent, action.build(), timeout == null ? MARGIN : timeout.plus(MARGIN)).thenApply(answer -> {
            JsonValue tuple = answer.get("tuple");
            if (!(tuple instanceof JsonArray fields)) {
                return Optional.empty();
            }
            List<String> found = new ArrayList<>(fields.size());
            fields.getValuesAs(JsonString.class).forEach(f -> found.add(f.getString()));
            return Optional.of(found);
        });
    }

    /** Asks the space's agent; its INFORM's JSON, or its refusal as a {@link SiebogException} with the status it gave. */
    private static CompletionStage<JsonObject> act(AbstractAgent agent, JsonObject action, Duration timeout) {
        ACLMessage question = ACLMessage.builder(Performative.REQUEST).receiver(new AID(AGENT, agent.aid().platform()))
                .language("json").ontology("siebog-tuples").content(action.toString()).build();
        return agent.ask(question, timeout).thenApply(answer -> {
            JsonObject content = Json.createReader(new StringReader(answer.content())).readObject();
            if (answer.performative() != Performative.INFORM) {
                throw new Refused(content.getInt("status", 502), content.getString("error", "the tuple space answered " + answer.performative()));
            }
            return content;
        });
    }

    private static JsonArrayBuilder array(List<String> fields) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        for (String field : fields) {
            if (field == null) {
                array.addNull();
            } else {
                array.add(field);
            }
        }
        return array;
    }

    /** The space's refusal, with its status (400 a bad tuple or template, 503 the space full). */
    static final class Refused extends SiebogException {
        private static final long serialVersionUID = 1L;
        private final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        @Override
        public int status() {
            return status;
        }
    }
}
