package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node that is alive but silent — paused with SIGSTOP, as a long GC pause or a frozen VM leaves it —
 * past the failure detector, under load, then woken up (docs/cluster.md, "Splits and pauses"). Its
 * agents carry on on the other two; every post through the others is answered (202, or 503 when it was
 * refused and may be posted again); when it wakes it admits nothing, gives its agents up and rejoins
 * empty, and every node lists the same members again. Counters check that every admitted message was
 * handled once, in each writer's order: a message handled on the woken node after its agents were taken
 * over would be missing from theirs (a gap).
 */
class PausedNodeIT {

    /** Port offset of node1 (1300: HTTP 9380, 9480, 9580); -Dsiebog.it.pausePortOffset=N when those are taken. */
    private static final int OFFSET = Integer.getInteger("siebog.it.pausePortOffset", 1300);
    private static final int COUNTERS = 6;
    private static LocalCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = new LocalCluster("paused-it", 3, OFFSET).runOptions("--no-cassandra").start();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.resume("node2"); // never leave a stopped process behind, whatever failed
            cluster.close();
        }
    }

    @Test
    void aPausedNodesAgentsCarryOnElsewhereAndTheNodeRejoinsEmpty() throws Exception {
        List<String> counters = new ArrayList<>();
        for (int i = 0; i < COUNTERS; i++) {
            cluster.api(1).start("Counter", "paused-" + i, "node2", null);
            counters.add("paused-" + i + "@siebog");
        }

        // One writer per counter through node1, each posting its next number once the last was admitted
        // (202); a 503 means refused, and the same number is posted again.
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Map<String, AtomicLong> admitted = new ConcurrentHashMap<>();
        AtomicLong refusals = new AtomicLong();
        List<Thread> writers = new ArrayList<>();
        for (String counter : counters) {
            AtomicLong n = new AtomicLong();
            admitted.put(counter, n);
            Thread writer = new Thread(() -> {
                try {
                    while (writing.get()) {
                        int status = cluster.api(1).tell("INFORM", counter, "rest", Long.toString(n.get() + 1));
                        if (status == 202) {
                            n.incrementAndGet();
                        } else {
                            assertEquals(503, status, () -> "message " + (n.get() + 1) + " to " + counter);
                            refusals.incrementAndGet();
                            Thread.sleep(100);
                        }
                    }
                } catch (Exception | AssertionError e) {
                    failures.add(e);
                }
            }, "writer-" + counter);
            writers.add(writer);
            writer.start();
        }
        ClusterIT.awaitTrue(() -> admitted.values().stream().allMatch(n -> n.get() >= 20), "every writer under way");

        cluster.pause("node2");
        long paused = System.nanoTime();
        ClusterIT.awaitTrue(() -> counters.stream().allMatch(c -> !locationOf(c).equals("node2")), "the counters taken over from node2");
        Map<String, Long> before = snapshot(admitted);
        ClusterIT.awaitTrue(() -> counters.stream().allMatch(c -> admitted.get(c).get() > before.get(c) + 5),
                "every counter admitting again on node1 or node3");
        long back = System.nanoTime();
        System.out.printf("PausedNodeIT: node2's agents admitted messages again %.1f s after it was paused%n", (back - paused) / 1e9);

        cluster.resume("node2");
        // Awake, node2 knows its lease ran out before it looks at anything else: it admits nothing.
        ClusterApi.Reply woken = cluster.api(2).post("messages", "{\"performative\": \"INFORM\", \"receivers\": [\"" + counters.get(0)
                + "\"], \"conversationId\": \"woken\", \"content\": \"1\"}");
        assertEquals(503, woken.status(), woken::toString);
        assertTrue(woken.body().contains("node2"), woken::toString);

        // It merges back, gives up what it held and rejoins empty: every node lists the same three members.
        for (int n = 1; n <= 3; n++) {
            int node = n;
            ClusterIT.awaitTrue(() -> memberNames(node).equals(List.of("node1", "node2", "node3")), "node" + n + " lists all three nodes");
        }
        ClusterIT.awaitTrue(() -> cluster.api(2).tell("INFORM", counters.get(0), "after-rejoin", "1") == 202,
                "node2 admits again once it has rejoined");
        writing.set(false);
        for (Thread writer : writers) {
            writer.join(120_000);
        }
        assertEquals(List.of(), failures, "every post through node1 was answered 202 or 503");

        for (String counter : counters) {
            assertTrue(!locationOf(counter).equals("node2"), counter + " stayed where it was taken over to");
            long extra = counter.equals(counters.get(0)) ? 1 : 0;
            long expected = admitted.get(counter).get() + extra;
            String report = ClusterIT.awaitReport(cluster.api(3), counter, r -> r.startsWith("handled=" + expected + " "));
            assertEquals("handled=" + expected + " highest=" + expected + " gaps=0 repeats=0 outOfOrder=0", report, counter);
        }
        System.out.printf("PausedNodeIT: %s admitted, %d posts refused (503) and posted again%n", snapshot(admitted), refusals.get());
    }

    private static Map<String, Long> snapshot(Map<String, AtomicLong> counts) {
        Map<String, Long> copy = new java.util.TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    private static String locationOf(String counter) {
        try {
            return cluster.api(1).get("agents/" + counter).object().getString("location");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> memberNames(int node) throws Exception {
        return cluster.api(node).get("nodes").array().stream().map(v -> ((JsonObject) v).getString("name")).sorted().toList();
    }
}
