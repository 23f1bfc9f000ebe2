package org.siebog.examples.tsp;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateful;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentManager;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * The demo's coordinator: ant colony optimisation of a random travelling-salesman instance, with
 * the colony partitioned over browser devices. It starts {@code ants} client agents
 * ({@code TspAnt}, placed on devices by their compute units), hands each a round of work at a time
 * (the cities, the best tour so far, how many iterations), keeps the best tour any ant found, and
 * answers QUERY_REF with its progress as JSON (the host page draws it).
 *
 * <p>Start it with {@code {"cities": "60", "ants": "4", "rounds": "100", "iterations": "20", "seed": "1"}}
 * (all optional); {@code rounds} counts every ant's rounds together.
 */
@Stateful
public class TspCoordinator extends AbstractAgent implements StatefulAgent {

    private static final Logger LOG = Logger.getLogger(TspCoordinator.class.getName());
    private static final JsonProvider JSON = JsonProvider.provider();
    private static final int HISTORY = 200;

    @EJB(lookup = AgentManager.JNDI_NAME)
    private transient AgentManager agents;

    private double[][] cities;
    private int rounds;
    private int iterations;
    private long seed;
    private int dispatched;
    private int roundsDone;
    private int[] best;
    private double bestLength = Double.POSITIVE_INFINITY;
    private final LinkedHashMap<String, Ant> ants = new LinkedHashMap<>();
    private final ArrayList<double[]> history = new ArrayList<>();

    /** What the coordinator knows of one ant. */
    private static final class Ant implements java.io.Serializable {
        int roundsDone;
        double bestLength = Double.POSITIVE_INFINITY;
    }

    @Override
    protected void onStart(Map<String, String> args) {
        int n = intArg(args, "cities", 60, 5, 500);
        int antCount = intArg(args, "ants", 4, 1, 64);
        rounds = intArg(args, "rounds", 100, 1, 100_000);
        iterations = intArg(args, "iterations", 20, 1, 1_000);
        seed = intArg(args, "seed", 1, 0, Integer.MAX_VALUE);
        Random random = new Random(seed);
        cities = new double[n][];
        for (int i = 0; i < n; i++) {
            cities[i] = new double[] {Math.round(random.nextDouble() * 10_000) / 10.0, Math.round(random.nextDouble() * 10_000) / 10.0};
        }
        for (int k = 1; k <= antCount; k++) {
            AgentInfo ant = agents.start("TspAnt", aid().name() + "-ant-" + k, Map.of("coordinator", aid().toString()), null);
            ants.put(ant.aid().toString(), new Ant());
        }
        for (String ant : ants.keySet()) {
            dispatchTo(AID.parse(ant));
        }
    }

    @Override
    protected void onMessage(ACLMessage message) {
        switch (message.performative()) {
            case INFORM -> antReported(message);
            case QUERY_REF -> send(reply(message, Performative.INFORM).content(status()));
            case FAILURE -> LOG.warning(() -> aid() + ": " + message.content());
            default -> send(reply(message, Performative.NOT_UNDERSTOOD).content("ants send INFORMs; ask progress with QUERY_REF"));
        }
    }

    @Override
    protected void onStop() {
        stopAnts();
    }

    private void antReported(ACLMessage message) {
        Ant ant = message.sender() == null ? null : ants.get(message.sender().toString());
        if (ant == null) {
            return;
        }
        JsonObject report;
        try (JsonReader reader = JSON.createReader(new StringReader(message.content()))) {
            report = reader.readObject();
        } catch (RuntimeException e) {
            LOG.warning(() -> message.sender() + " sent an unreadable report: " + e.getMessage());
            return;
        }
        int[] tour = tourOf(report.get("tour"));
        ant.roundsDone++;
        roundsDone++;
        if (tour != null) {
            double length = length(tour);
            ant.bestLength = Math.min(ant.bestLength, length);
            if (length < bestLength) {
                bestLength = length;
                best = tour;
            }
        }
        history.add(new double[] {roundsDone, bestLength});
        if (history.size() > HISTORY) {
            history.remove(0);
        }
        if (dispatched < rounds) {
            dispatchTo(message.sender());
        } else if (roundsDone >= rounds) {
            stopAnts();
        }
    }

    private void dispatchTo(AID ant) {
        if (dispatched >= rounds) {
            return;
        }
        dispatched++;
        JsonObjectBuilder work = JSON.createObjectBuilder()
                .add("cities", citiesJson())
                .add("best", best == null ? JsonValue.NULL : tourJson(best).build())
                .add("round", dispatched)
                .add("iterations", iterations)
                .add("seed", seed);
        addLength(work, "bestLength", bestLength);
        send(ACLMessage.builder(Performative.REQUEST).receiver(ant).conversationId("tsp")
                .replyWith("r" + dispatched).content(work.build().toString()));
    }

    private void stopAnts() {
        for (String ant : List.copyOf(ants.keySet())) {
            try {
                agents.stop(AID.parse(ant));
            } catch (RuntimeException alreadyGone) {
                // stopped before, or its device left with no other to take it
            }
        }
    }

    private String status() {
        JsonArrayBuilder antsJson = JSON.createArrayBuilder();
        ants.forEach((aid, ant) -> {
            // Asked each time: an ant moves to another device when its device leaves.
            String device = agents.find(AID.parse(aid)).map(AgentInfo::location).orElse("stopped");
            JsonObjectBuilder a = JSON.createObjectBuilder().add("aid", aid).add("device", device)
                    .add("roundsDone", ant.roundsDone);
            addLength(a, "bestLength", ant.bestLength);
            antsJson.add(a);
        });
        JsonArrayBuilder historyJson = JSON.createArrayBuilder();
        history.forEach(h -> historyJson.add(JSON.createObjectBuilder().add("round", (int) h[0]).add("bestLength", h[1])));
        JsonObjectBuilder status = JSON.createObjectBuilder()
                .add("cities", citiesJson())
                .add("best", best == null ? JsonValue.NULL : tourJson(best).build())
                .add("roundsDone", roundsDone)
                .add("rounds", rounds)
                .add("ants", antsJson)
                .add("history", historyJson);
        addLength(status, "bestLength", bestLength);
        return status.build().toString();
    }

    /** A tour is a permutation of the cities; anything else from an ant is ignored. */
    private int[] tourOf(JsonValue value) {
        if (!(value instanceof JsonArray array) || array.size() != cities.length) {
            return null;
        }
        int[] tour = new int[cities.length];
        boolean[] seen = new boolean[cities.length];
        for (int i = 0; i < tour.length; i++) {
            if (!(array.get(i) instanceof JsonNumber n) || !n.isIntegral() || n.intValue() < 0 || n.intValue() >= cities.length
                    || seen[n.intValue()]) {
                return null;
            }
            tour[i] = n.intValue();
            seen[tour[i]] = true;
        }
        return tour;
    }

    /** Measured here, not taken from the ant's report. */
    private double length(int[] tour) {
        double total = 0;
        for (int i = 0; i < tour.length; i++) {
            double[] a = cities[tour[i]];
            double[] b = cities[tour[(i + 1) % tour.length]];
            total += Math.hypot(a[0] - b[0], a[1] - b[1]);
        }
        return total;
    }

    /** No tour yet is null, not infinity (which JSON cannot carry). */
    private static void addLength(JsonObjectBuilder json, String name, double length) {
        if (Double.isFinite(length)) {
            json.add(name, length);
        } else {
            json.addNull(name);
        }
    }

    private JsonArrayBuilder citiesJson() {
        JsonArrayBuilder json = JSON.createArrayBuilder();
        for (double[] c : cities) {
            json.add(JSON.createArrayBuilder().add(c[0]).add(c[1]));
        }
        return json;
    }

    private static JsonArrayBuilder tourJson(int[] tour) {
        JsonArrayBuilder json = JSON.createArrayBuilder();
        for (int city : tour) {
            json.add(city);
        }
        return json;
    }

    private static int intArg(Map<String, String> args, String name, int fallback, int min, int max) {
        String value = args.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidAgentRequestException("'" + name + "' must be a whole number from " + min + " to " + max + ", got '" + value + "'");
    }
}
