package org.siebog.examples.dfbench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentManager;
import org.siebog.api.DirectoryFacilitator;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.MessageManager;
import org.siebog.api.Performative;
import org.siebog.api.ServiceDescription;
import org.siebog.api.ServiceTemplate;
import org.siebog.examples.web.BodyFields;

/**
 * The directory facilitator benchmark inside the platform, for {@code perf/df}: {@code POST
 * /siebog-examples/api/df-bench/runs} {@code {"registrations", "types", "searchers", "searches",
 * "limit"}} (admins) fills the directory with {@code registrations} services of {@code types} types
 * ({@code bench-0} ...), 32 per {@link DfHolder} (the directory's bound per agent), unless it holds
 * them already; then starts {@code searchers} {@link DfSearcher}s (placed on the nodes as any agent)
 * that each search {@code searches} times through {@code df@<platform>}, one search after another,
 * all searchers at once; answers with the search throughput and round-trip latencies, and stops the
 * searchers. {@code registrations: 0} removes every holder (and so every entry).
 */
@Path("df-bench/runs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed("siebog-admin")
public class DfBenchResource {

    static final int SERVICES_PER_HOLDER = 32;
    private static final String HOLDER = "df-holder-";
    private static final int LOADERS = 8;

    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    @EJB(lookup = MessageManager.JNDI_NAME)
    MessageManager messages;

    @EJB(lookup = DirectoryFacilitator.JNDI_NAME)
    DirectoryFacilitator df;

    @POST
    public Map<String, Object> run(JsonObject body) {
        if (body == null) {
            throw new InvalidAgentRequestException("the request needs a JSON object body");
        }
        int registrations = BodyFields.whole(body, "registrations", 10_000, 0, 1_000_000);
        int types = BodyFields.whole(body, "types", 1_000, 1, 100_000);
        int searchers = BodyFields.whole(body, "searchers", 8, 1, 1_000);
        int searches = BodyFields.whole(body, "searches", 1_000, 1, 100_000);
        int limit = BodyFields.whole(body, "limit", 100, 1, 1_000);
        String searchersOn = searchersOn(body);
        double loadSeconds = load(registrations, types);
        if (registrations == 0) {
            return Map.of("registrations", 0, "loadSeconds", loadSeconds);
        }
        List<AID> started = new ArrayList<>();
        try {
            for (int i = 0; i < searchers; i++) {
                started.add(agents.start("DfSearcher", "df-searcher-" + System.nanoTime() + "-" + i, Map.of(), searchersOn).aid());
            }
            long began = System.nanoTime();
            List<CompletableFuture<ACLMessage>> answers = started.stream()
                    .map(searcher -> messages.askAsync(ACLMessage.builder(Performative.REQUEST).receiver(searcher)
                            .content(searches + " " + types + " " + limit).build(), Duration.ofMinutes(5)).toCompletableFuture())
                    .toList();
            long[] micros = new long[searchers * searches];
            long found = 0;
            int at = 0;
            for (CompletableFuture<ACLMessage> answer : answers) {
                ACLMessage report = answer.join();
                if (report.performative() != Performative.INFORM) {
                    throw new IllegalStateException("a searcher failed: " + report.content());
                }
                String[] parts = report.content().split(";");
                for (String value : parts[0].split(",")) {
                    micros[at++] = Long.parseLong(value);
                }
                found += Long.parseLong(parts[1]);
            }
            double seconds = (System.nanoTime() - began) / 1e9;
            Arrays.sort(micros);
            return Map.of("registrations", registrations, "types", types, "searchers", searchers, "searches", micros.length,
                    "loadSeconds", loadSeconds, "searchesPerSecond", Math.round(micros.length / seconds),
                    "meanMicros", Math.round(Arrays.stream(micros).average().orElse(0)),
                    "p50Micros", micros[micros.length / 2], "p99Micros", micros[(int) (micros.length * 0.99)],
                    "entriesPerSearch", (double) found / micros.length);
        } finally {
            started.forEach(agents::stop);
        }
    }

    /** The node every searcher is pinned to, or null (placed as any agent); a node not in the cluster is the start's 400. */
    private static String searchersOn(JsonObject body) {
        if (!body.containsKey("searchersOn") || body.isNull("searchersOn")) {
            return null;
        }
        if (!(body.get("searchersOn") instanceof JsonString node) || node.getString().isEmpty()) {
            throw new InvalidAgentRequestException("'searchersOn' must be a node's name");
        }
        return node.getString();
    }

    /**
     * Makes the directory hold {@code registrations} bench services of {@code types} types (nothing
     * to do when it does); returns the seconds it took.
     */
    private double load(int registrations, int types) {
        long began = System.nanoTime();
        if (registrations == 0) {
            agents.agents().stream().map(AgentInfo::aid).filter(aid -> aid.name().startsWith(HOLDER)).forEach(agents::stop);
            return (System.nanoTime() - began) / 1e9;
        }
        int holders = (registrations + SERVICES_PER_HOLDER - 1) / SERVICES_PER_HOLDER;
        List<AID> existing = agents.agents().stream().map(AgentInfo::aid).filter(aid -> aid.name().startsWith(HOLDER)).toList();
        if (existing.size() == holders && registered(registrations, types)) {
            return 0;
        }
        existing.forEach(agents::stop);
        ExecutorService loaders = Executors.newFixedThreadPool(LOADERS);
        try {
            List<CompletableFuture<Void>> loading = IntStream.range(0, holders).mapToObj(h -> CompletableFuture.runAsync(() -> {
                AID holder = agents.start("DfHolder", HOLDER + h, Map.of()).aid();
                for (int i = h * SERVICES_PER_HOLDER; i < Math.min(registrations, (h + 1) * SERVICES_PER_HOLDER); i++) {
                    df.register(holder, ServiceDescription.of("bench-" + (i % types), "service-" + i), null);
                }
            }, loaders)).toList();
            loading.forEach(CompletableFuture::join);
        } finally {
            loaders.shutdown();
        }
        return (System.nanoTime() - began) / 1e9;
    }

    /** Whether the directory holds the bench services of this shape: the count of one type, and the last service. */
    private boolean registered(int registrations, int types) {
        int ofTypeZero = (registrations + types - 1) / types;
        return df.search(ServiceTemplate.ofType("bench-0"), 1_000).size() == Math.min(ofTypeZero, 1_000)
                && !df.search(ServiceTemplate.ofType("bench-" + ((registrations - 1) % types)).withName("service-" + (registrations - 1)), 1).isEmpty();
    }
}
