package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client's load on Counters, as a careful REST client posts it: one writer per Counter posting
 * numbered INFORMs (1, 2, 3, ...) under an {@code Idempotency-Key} each, the next once the last was
 * admitted (202). A 503 (refused: the agent is being taken over, the node is cut off) and a post with
 * no answer within {@link #TIMEOUT} are posted again, under the same key. So every number is admitted
 * once, in order, and the Counter's report must say exactly that: handled = highest = the last number
 * admitted, no gaps, no repeats, nothing out of order.
 */
final class CounterWriters implements AutoCloseable {

    /** What a client waits for an answer before it posts again: well past a takeover (10 s), well short of the API's own 35 s. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final AtomicBoolean writing = new AtomicBoolean(true);
    private final Map<String, AtomicLong> admitted = new ConcurrentHashMap<>();
    /** Per counter: since when (nanoTime) its writer has been posting its current number, or 0 between numbers. */
    private final Map<String, AtomicLong> waiting = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> longestWait = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong unanswered = new AtomicLong();
    private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> writers = new ArrayList<>();
    /** Each number's posts, per counter: {@code node3:503@12.4s node1:202@13.0s}, for a checker that finds one missing. */
    private final Map<String, Map<Long, String>> journeys = new ConcurrentHashMap<>();
    private final long began = System.nanoTime();

    /** Starts one writer per counter, posting through the node {@code through} names (asked before every post). */
    CounterWriters(LocalCluster cluster, String run, List<String> counters, IntSupplier through) {
        for (String counter : counters) {
            AtomicLong n = new AtomicLong();
            admitted.put(counter, n);
            AtomicLong waitingSince = new AtomicLong();
            waiting.put(counter, waitingSince);
            AtomicLong longest = new AtomicLong();
            longestWait.put(counter, longest);
            Map<Long, String> journey = new ConcurrentHashMap<>();
            journeys.put(counter, journey);
            Thread writer = new Thread(() -> {
                try {
                    // A number posted and not yet admitted is posted until it is, even once closing: it may
                    // have been admitted already (a post with no answer), and the counter must not be left
                    // holding a number that the writer does not count.
                    boolean inFlight = false;
                    while (writing.get() || inFlight) {
                        long next = n.get() + 1;
                        waitingSince.compareAndSet(0, System.nanoTime());
                        int node = through.getAsInt();
                        int status = cluster.api(node).tellOnce(counter, Long.toString(next), run + "-" + counter + "-" + next, TIMEOUT);
                        journey.merge(next, String.format("node%d:%d@%.1fs", node, status, (System.nanoTime() - began) / 1e9),
                                (before, now) -> before + " " + now);
                        if (status == 202) {
                            n.set(next);
                            inFlight = false;
                            long since = waitingSince.getAndSet(0);
                            if (since != 0) {
                                longest.accumulateAndGet(System.nanoTime() - since, Math::max);
                            }
                            continue;
                        }
                        inFlight = true;
                        if (status == 0) {
                            unanswered.incrementAndGet();
                        } else {
                            assertEquals(503, status, () -> "message " + next + " to " + counter + " through node" + node);
                            refused.incrementAndGet();
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
    }

    /** How number {@code n} to {@code counter} was posted: each post's node, status (0: no answer) and time since the start. */
    String journey(String counter, long n) {
        return journeys.get(counter).getOrDefault(n, "never posted");
    }

    /** Of each counter, the longest time one of its numbers took from its first post to its admission (202). */
    Map<String, Duration> longestWaits() {
        Map<String, Duration> copy = new TreeMap<>();
        longestWait.forEach((counter, nanos) -> copy.put(counter, Duration.ofNanos(nanos.get())));
        return copy;
    }

    /** Counters whose writer has been waiting over a second for its number's admission: unavailable to a client. */
    long waitingNow() {
        long now = System.nanoTime();
        return waiting.values().stream().mapToLong(AtomicLong::get).filter(since -> since != 0 && now - since > 1_000_000_000L).count();
    }

    long admitted(String counter) {
        return admitted.get(counter).get();
    }

    Map<String, Long> admitted() {
        Map<String, Long> copy = new TreeMap<>();
        admitted.forEach((counter, n) -> copy.put(counter, n.get()));
        return copy;
    }

    /** Posts refused with a 503 and posted again. */
    long refused() {
        return refused.get();
    }

    /** Posts that got no answer within {@link #TIMEOUT} and were posted again. */
    long unanswered() {
        return unanswered.get();
    }

    /** Stops the writers after their current post; fails if any post was answered other than 202 or 503. */
    @Override
    public void close() throws InterruptedException {
        writing.set(false);
        // Two minutes for all of them together: a writer whose node refuses for good must fail the test, not hold it for minutes each.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        for (Thread writer : writers) {
            writer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (writer.isAlive()) {
                writer.interrupt();
                failures.add(new AssertionError(writer.getName() + " still posting 2 minutes after the writers were told to stop"));
            }
        }
        assertEquals(List.of(), failures, "every post was answered 202 or 503, or not at all");
    }

    /**
     * Stops the writers and checks the whole history: no agent acted for by two nodes at any sampled
     * moment, every admitted message handled exactly once, in order (asked through {@code api}).
     */
    void closeAndCheck(Activations activations, ClusterApi api, String test) throws Exception {
        close();
        activations.close();
        assertTrue(activations.samples() > 10, activations.samples() + " rounds of questions to every node");
        assertEquals(List.of(), activations.doubles(), "no agent acted for by two nodes at once");
        assertHandledExactlyOnceInOrder(api);
        System.out.printf("%s: %s admitted; %d posts refused (503), %d unanswered within %d s, posted again; %d rounds of"
                + " questions to every node%n", test, admitted(), refused(), unanswered(), TIMEOUT.toSeconds(), activations.samples());
    }

    /** The journeys of the numbers a Counter's report names (its first gaps or repeats, e.g. {@code history:24-24}). */
    private String journeysIn(String counter, String report) {
        StringBuilder out = new StringBuilder();
        Matcher range = Pattern.compile("(\\d+)-(\\d+)").matcher(report.substring(report.indexOf("first") + 1));
        for (int found = 0; range.find() && found < 5; found++) {
            for (long n = Long.parseLong(range.group(1)); n <= Math.min(Long.parseLong(range.group(2)), Long.parseLong(range.group(1)) + 3); n++) {
                out.append(n).append(": ").append(journey(counter, n)).append("; ");
            }
        }
        return out.toString();
    }

    /** Every counter handled exactly the numbers admitted, once each, in order (asked through {@code api}). */
    void assertHandledExactlyOnceInOrder(ClusterApi api) throws Exception {
        for (String counter : admitted.keySet()) {
            long expected = admitted(counter);
            String report = ClusterIT.awaitReport(api, counter, r -> r.startsWith("handled=" + expected + " "));
            assertEquals("handled=" + expected + " highest=" + expected + " gaps=0 repeats=0 outOfOrder=0", report,
                    () -> counter + "; the posts of the numbers it names (node:status@time, 0: no answer): " + journeysIn(counter, report));
        }
    }
}
