package org.siebog.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

/**
 * Asks every node, all at once and over and over ({@code GET /nodes/here} and {@code /nodes/here/agents}),
 * which agents it holds and whether it acts for them, and records every moment at which two nodes
 * act for the same agent. Two answers count as one moment when their requests overlapped in time: a
 * node that stopped acting just before the other started is not a double activation, and the nodes
 * take over a departed node's agents only well after its lease ended (docs/cluster.md).
 */
final class Activations implements AutoCloseable {

    /** One node's answer: whether it acts, the agents it holds, and when it was asked and answered (nanoTime). */
    private record Answer(int node, boolean acting, Set<String> agents, long asked, long answered) {
        boolean overlaps(Answer other) {
            return asked <= other.answered && other.asked <= answered;
        }
    }

    private final LocalCluster cluster;
    private final int nodes;
    private final Set<String> watched;
    private final AtomicBoolean sampling = new AtomicBoolean(true);
    private final AtomicLong samples = new AtomicLong();
    private final List<String> doubles = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService askers;
    private final Thread sampler;

    Activations(LocalCluster cluster, int nodes, Set<String> watched) {
        this.cluster = cluster;
        this.nodes = nodes;
        this.watched = Set.copyOf(watched);
        this.askers = Executors.newFixedThreadPool(nodes);
        this.sampler = new Thread(this::sample, "activations");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        while (sampling.get()) {
            List<CompletableFuture<Answer>> round = new ArrayList<>();
            for (int n = 1; n <= nodes; n++) {
                int node = n;
                round.add(CompletableFuture.supplyAsync(() -> ask(node), askers));
            }
            List<Answer> answers = round.stream().map(CompletableFuture::join).filter(a -> a != null).toList();
            samples.incrementAndGet();
            for (String agent : watched) {
                List<Answer> acting = answers.stream().filter(a -> a.acting() && a.agents().contains(agent)).toList();
                for (int i = 0; i < acting.size(); i++) {
                    for (int j = i + 1; j < acting.size(); j++) {
                        if (acting.get(i).overlaps(acting.get(j))) {
                            doubles.add(agent + " acted for by node" + acting.get(i).node() + " and node" + acting.get(j).node());
                        }
                    }
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Node {@code node}'s answer, or null when it gave none in time (paused, or stopping): it cannot be acting for anyone then. */
    private Answer ask(int node) {
        long asked = System.nanoTime();
        try {
            ClusterApi api = cluster.api(node);
            JsonObject here = api.get("nodes/here", Duration.ofSeconds(2)).object();
            Set<String> agents = new HashSet<>(api.get("nodes/here/agents", Duration.ofSeconds(2)).array().getValuesAs(JsonString::getString));
            boolean stillActing = here.getBoolean("acting") && api.get("nodes/here", Duration.ofSeconds(2)).object().getBoolean("acting");
            return new Answer(node, stillActing, agents, asked, System.nanoTime());
        } catch (Exception noAnswer) {
            return null;
        }
    }

    /** Rounds of questions so far. */
    long samples() {
        return samples.get();
    }

    /** Every moment two nodes acted for one agent, as "AID acted for by nodeA and nodeB". */
    List<String> doubles() {
        return List.copyOf(doubles);
    }

    @Override
    public void close() throws InterruptedException {
        sampling.set(false);
        sampler.join(10_000);
        askers.shutdownNow();
    }
}
