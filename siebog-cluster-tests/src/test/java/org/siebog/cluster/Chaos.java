package org.siebog.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import jakarta.json.Json;

/**
 * A soak in Jepsen's way (issue 38): a cluster under a mixed load while a nemesis kills, pauses and
 * partitions its nodes at random, then a checker over the whole history.
 *
 * <p>The load, each kind with the promise it is checked against (docs/cluster.md, "What holds"):
 * <ul>
 * <li>stateful: ten Counters, each written to by a careful REST client ({@link CounterWriters}:
 *     numbered INFORMs under Idempotency-Keys, posted again until admitted): each number handled
 *     exactly once, in order;</li>
 * <li>stateless: REQUESTs (under keys, posted again until admitted) to a Ticker pinned on node3,
 *     each relayed as an INFORM in a conversation of its own to a Counter: every one at least once;</li>
 * <li>delayed posts ({@code delayMs} 0.5–8 s) to a Counter, each in a conversation of its own: each
 *     stored post fires once;</li>
 * <li>a topic that three Counters subscribe to, its numbered publications posted again until admitted:
 *     under keys: each subscriber handles each one once, in order;</li>
 * <li>asks ({@code QUERY_REF}, {@code awaitReplyMs}) of the Counters: answered, or refused with a status.</li>
 * </ul>
 * Every request goes through a node the nemesis has neither killed nor paused, as a load balancer's
 * health check would send it; a cut-off node is asked too, and must answer 503 at once.
 *
 * <p>The nemesis, one fault at a time, each followed by the cluster's recovery (every node lists all
 * of them and acts): a node killed (SIGKILL) and started again ({@code ./siebog restart}, as a
 * supervisor would); two killed at the same instant and started again (the cluster must keep three
 * copies); a node paused past the failure detector (SIGSTOP), then woken; with partitions, one or two
 * nodes cut off from the rest for a while, and a link that flaps.
 *
 * <p>{@code perf/chaos} runs it for as long as asked; {@code FiveNodesIT} runs it briefly.
 */
final class Chaos {

    /** How long, the nemesis's seed, and whether the nodes are in network namespaces (cuts); where the CSV and PNG go. */
    record Options(Duration length, long seed, boolean partitions, Path out) {
    }

    /**
     * What the Ticker relays per request: one INFORM, so that a Counter's report counts the stateless
     * agent's promise exactly. With a stream of ten, a number that a sender sent again overtook (allowed:
     * at least once) reads as a gap and a late one, as a lost number and a repeat do (the first run
     * counted "2 lost" that way, with every number handled); ClusterIT relays streams of twenty.
     */
    static final int RELAYED = 1;
    private static final int COUNTERS = 10;
    private static final int SUBSCRIBERS = 3;
    private static final Duration ASK_WITHIN = Duration.ofSeconds(3);
    /** How long the cluster may take to list every node again and act on every node, once a fault has ended. */
    private static final Duration RECOVERY = Duration.ofSeconds(120);
    /** A gap a Counter reports, {@code history:from-to}: the writers' stream is the conversation "history". */
    private static final Pattern FIRST_GAP = Pattern.compile("history:(\\d+)-(\\d+)");
    /** The first numbers a Counter saw twice, {@code conversation:n,...}. */
    private static final Pattern FIRST_REPEATS = Pattern.compile("firstRepeats=(\\S+)");
    private static final Pattern REPORT = Pattern.compile("handled=(\\d+) highest=(\\d+) gaps=(\\d+) repeats=(\\d+) outOfOrder=(\\d+)");

    private final LocalCluster cluster;
    private final int nodes;
    private final Options options;
    private final String run;
    private final Random random;
    /** Killed and not started again yet, or paused: no request goes there. */
    private final Set<Integer> unreachable = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean loading = new AtomicBoolean(true);
    private final ChaosTimeline timeline;
    private final List<Thread> clients = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();

    private final AtomicLong relayAdmitted = new AtomicLong();
    private final AtomicLong delayedStored = new AtomicLong();
    private final AtomicLong delayedUnanswered = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong publishedUnanswered = new AtomicLong();
    /** Publications refused (503) and posted again: a refused post to several receivers may have reached some (docs/cluster.md). */
    private final AtomicLong publishedRefused = new AtomicLong();
    private final Map<Integer, AtomicLong> asks = new ConcurrentHashMap<>(); // status (0: no answer) → count

    Chaos(LocalCluster cluster, int nodes, Options options) {
        this.cluster = cluster;
        this.nodes = nodes;
        this.options = options;
        this.random = new Random(options.seed());
        this.run = "chaos" + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        this.timeline = new ChaosTimeline(options.out());
    }

    /** Runs the load and the nemesis for the length asked, lets the cluster recover, and checks the history. */
    ChaosVerdict run() throws Exception {
        for (int n = 1; n <= nodes; n++) {
            if (!answers(n)) {
                cluster.restart("node" + n); // left down by an earlier test
            }
        }
        awaitRecovered();
        List<String> counters = start("Counter", run + "-c", COUNTERS);
        String relayed = start("Counter", run + "-relayed", 1).get(0);
        String delayed = start("Counter", run + "-delayed", 1).get(0);
        List<String> subscribers = start("Counter", run + "-sub", SUBSCRIBERS);
        String relay = run + "-relay@siebog";
        cluster.api(1).start("Ticker", run + "-relay", "node3", null);
        String topic = run + "-news";
        for (String subscriber : subscribers) {
            ClusterIT.subscribe(cluster.api(1), subscriber, topic, null);
        }
        Set<String> watched = new HashSet<>(counters);
        watched.addAll(subscribers);
        watched.add(relayed);
        watched.add(delayed);

        long began = System.nanoTime();
        Activations activations = new Activations(cluster, nodes, watched);
        CounterWriters writers = new CounterWriters(cluster, run, counters, this::through);
        client("relay", () -> relay(relay, relayed));
        client("delayed", () -> delayedPosts(delayed));
        client("publisher", () -> publish(topic));
        client("asker", () -> ask(counters));
        timeline.start(began, Map.of(
                "stateful", () -> writers.admitted().values().stream().mapToLong(Long::longValue).sum(),
                "stateless", relayAdmitted::get,
                "delayed", delayedStored::get,
                "topic", published::get,
                "asks answered", () -> asks.getOrDefault(200, new AtomicLong()).get()), writers::waitingNow);

        Nemesis nemesis = new Nemesis();
        long until = began + options.length().toNanos();
        while (System.nanoTime() < until) {
            nemesis.next();
        }
        awaitRecovered();
        Thread.sleep(2_000); // admissions again, everywhere, before the load stops
        writers.close();
        loading.set(false);
        for (Thread client : clients) {
            client.join(120_000);
        }
        activations.close();
        timeline.stop(); // the last delayed posts are due within 8 s: awaitReport waits for them

        ChaosVerdict.Builder verdict = new ChaosVerdict.Builder(options.length(), nemesis.faults, activations.samples(), activations.doubles(),
                writers.longestWaits(), asks, failures);
        ClusterApi api = cluster.api(1);
        for (String counter : counters) {
            Report r = awaitReport(api, counter, writers.admitted(counter));
            long lost = r.gaps() + Math.max(0, writers.admitted(counter) - r.highest());
            verdict.kind("stateful", writers.admitted(counter), r.handled(), lost, r.repeats(), r.outOfOrder());
            if (lost + r.repeats() + r.outOfOrder() > 0) {
                verdict.note(counter + " (admitted " + writers.admitted(counter) + "): " + r);
                Matcher gap = FIRST_GAP.matcher(r.raw());
                while (gap.find()) {
                    noteJourneys(verdict, writers, counter, Long.parseLong(gap.group(1)), Long.parseLong(gap.group(2)));
                }
                Matcher repeats = FIRST_REPEATS.matcher(r.raw());
                if (repeats.find()) {
                    for (String repeat : repeats.group(1).split(",")) {
                        long n = Long.parseLong(repeat.substring(repeat.indexOf(':') + 1));
                        noteJourneys(verdict, writers, counter, n, n);
                    }
                }
            }
        }
        long streams = RELAYED * relayAdmitted.get();
        Report relayReport = awaitReport(api, relayed, streams);
        // At least once: a request relayed again is a repeat, and allowed.
        verdict.kind("stateless", relayAdmitted.get(), relayReport.handled(), relayReport.gaps() + Math.max(0, streams - relayReport.distinct()), 0, 0);
        verdict.note("relayed: " + relayReport);
        Report delayedReport = awaitReport(api, delayed, delayedStored.get());
        verdict.note("delayed: " + delayedReport);
        verdict.kind("delayed", delayedStored.get(), delayedReport.handled(), Math.max(0, delayedStored.get() - delayedReport.distinct()),
                delayedReport.repeats(), delayedReport.outOfOrder());
        for (String subscriber : subscribers) {
            Report r = awaitReport(api, subscriber, published.get());
            if (r.gaps() + r.repeats() + r.outOfOrder() > 0 || r.highest() < published.get()) {
                verdict.note(subscriber + " (published " + published.get() + "): " + r);
            }
            verdict.kind("topic", published.get(), r.handled(), r.gaps() + Math.max(0, published.get() - r.highest()), r.repeats(),
                    r.outOfOrder());
        }
        verdict.note("publications posted again (under their keys): " + publishedUnanswered.get() + " after no answer, "
                + publishedRefused.get() + " after a 503");
        verdict.unknown(delayedUnanswered.get());
        ChaosVerdict done = verdict.build();
        timeline.write(done);
        return done;
    }

    /** Starts {@code count} Counters (placed by the cluster); their AIDs. */
    private List<String> start(String agentClass, String prefix, int count) throws Exception {
        List<String> aids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = count == 1 ? prefix : prefix + "-" + i;
            cluster.api(1).start(agentClass, name, null, null);
            aids.add(name + "@siebog");
        }
        return aids;
    }

    /** A node to send a request through: any the nemesis has neither killed nor paused. */
    private int through() {
        List<Integer> up = IntStream.rangeClosed(1, nodes).filter(n -> !unreachable.contains(n)).boxed().toList();
        return up.get(ThreadLocalRandom.current().nextInt(up.size()));
    }

    private interface Load {
        void run() throws Exception;
    }

    private void client(String name, Load load) {
        Thread thread = new Thread(() -> {
            try {
                load.run();
            } catch (Exception | AssertionError e) {
                synchronized (failures) {
                    failures.add(e);
                }
            }
        }, run + "-" + name);
        clients.add(thread);
        thread.start();
    }

    /** Posts {@code json} until it is admitted (under {@code key}, or none); counts the posts that got no answer, and those refused. */
    private void postUntilAdmitted(String path, String json, String key, AtomicLong unanswered, AtomicLong refused) throws Exception {
        while (true) {
            int node = through();
            int status = cluster.api(node).postWithin(path, json, key, CounterWriters.TIMEOUT);
            if (status == 202) {
                return;
            }
            if (status == 0) {
                if (unanswered != null) {
                    unanswered.incrementAndGet();
                }
                continue;
            }
            if (status != 503) {
                throw new AssertionError("POST /" + path + " " + json + " through node" + node + ": " + status + ", not 202 or 503");
            }
            if (refused != null) {
                refused.incrementAndGet();
            }
            Thread.sleep(100);
        }
    }

    /** One stream of {@value #RELAYED} numbers per request, in a conversation of its own: relayed again whole when sent again. */
    private void relay(String relay, String relayed) throws Exception {
        for (long n = 1; loading.get(); n++) {
            String request = ClusterApi.message("REQUEST", relay, "relay-" + n, RELAYED + " " + relayed + " 1");
            postUntilAdmitted("messages", request, run + "-relay-" + n, null, null);
            relayAdmitted.set(n);
            Thread.sleep(50);
        }
    }

    /** Delayed posts take no key: one that got no answer may or may not be stored, and is not posted again (counted as unknown). */
    private void delayedPosts(String delayed) throws Exception {
        Random delays = new Random(options.seed() + 1);
        for (long k = 1; loading.get(); k++) {
            String post = ClusterApi.message("INFORM", delayed, "delayed-" + k, "1");
            int status = cluster.api(through()).postWithin("messages?delayMs=" + (500 + delays.nextInt(7_500)), post, null, CounterWriters.TIMEOUT);
            if (status == 202) {
                delayedStored.incrementAndGet();
            } else if (status == 0) {
                delayedUnanswered.incrementAndGet();
            } else if (status != 503) {
                throw new AssertionError("a delayed post: " + status + ", not 202 or 503");
            }
            Thread.sleep(400);
        }
    }

    private void publish(String topic) throws Exception {
        for (long n = 1; loading.get(); n++) {
            postUntilAdmitted("messages", ClusterApi.message("INFORM", "topic:" + topic + "@siebog", "news", Long.toString(n)),
                    topic + "-" + n, publishedUnanswered, publishedRefused);
            published.set(n);
            Thread.sleep(100);
        }
    }

    private void ask(List<String> counters) throws Exception {
        Random which = new Random(options.seed() + 2);
        while (loading.get()) {
            String question = Json.createObjectBuilder().add("performative", "QUERY_REF")
                    .add("receivers", Json.createArrayBuilder().add(counters.get(which.nextInt(counters.size())))).build().toString();
            int status = cluster.api(through()).postWithin("messages?awaitReplyMs=" + ASK_WITHIN.toMillis(), question, null,
                    CounterWriters.TIMEOUT);
            asks.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
            Thread.sleep(250);
        }
    }

    /** A Counter's report: {@code distinct} numbers are those that advanced a stream (handled, not again nor late). */
    private record Report(long handled, long highest, long gaps, long repeats, long outOfOrder, String raw) {
        long distinct() {
            return handled - repeats - outOfOrder;
        }
    }

    /** The posts of numbers {@code from} to {@code to} of a Counter's history, and of each neighbour: what a missing or repeated number went through. */
    private static void noteJourneys(ChaosVerdict.Builder verdict, CounterWriters writers, String counter, long from, long to) {
        for (long n = from - 1; n <= to + 1; n++) {
            verdict.note("  " + n + ": " + writers.journey(counter, n));
        }
    }

    /** The counter's report once it has handled {@code expected} numbers, or as it stands after a minute. */
    private static Report awaitReport(ClusterApi api, String counter, long expected) throws Exception {
        String report = ClusterIT.awaitReport(api, counter, r -> parse(r).distinct() >= expected);
        return parse(report);
    }

    private static Report parse(String report) {
        Matcher m = REPORT.matcher(report);
        if (!m.find()) {
            throw new AssertionError("not a Counter's report: " + report);
        }
        return new Report(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4)),
                Long.parseLong(m.group(5)), report);
    }

    private boolean answers(int node) {
        try {
            return cluster.api(node).get("nodes/here", Duration.ofSeconds(5)).status() == 200;
        } catch (Exception e) {
            return false;
        }
    }

    /** Until every node lists every node and acts; after {@link #RECOVERY} the run fails. */
    private void awaitRecovered() throws Exception {
        List<String> all = IntStream.rangeClosed(1, nodes).mapToObj(n -> "node" + n).toList();
        long deadline = System.nanoTime() + RECOVERY.toNanos();
        for (int n = 1; n <= nodes; n++) {
            while (!recovered(n, all)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("node" + n + " did not list all of " + all + " and act within " + RECOVERY.toSeconds()
                            + " s of the fault's end");
                }
                Thread.sleep(500);
            }
        }
    }

    private boolean recovered(int node, List<String> all) {
        try {
            return cluster.api(node).memberNames().equals(all) && cluster.api(node).here().getBoolean("acting");
        } catch (Exception notYet) { // booting, or still rejoining
            return false;
        }
    }

    /** One fault at a time, chosen at random, each ended and recovered from before the next. */
    private final class Nemesis {

        final List<ChaosVerdict.Fault> faults = new ArrayList<>();

        void next() throws Exception {
            Thread.sleep(5_000 + random.nextInt(10_000)); // a quiet spell
            List<Integer> victims = pick(1 + random.nextInt(2));
            int kinds = options.partitions() ? 5 : 3;
            long began = System.nanoTime();
            String what = switch (random.nextInt(kinds)) {
                case 0 -> kill(victims.subList(0, 1));
                case 1 -> kill(victims);
                case 2 -> pause(victims.get(0));
                case 3 -> cut(victims);
                default -> flap(victims.get(0), pick(2).stream().filter(n -> !n.equals(victims.get(0))).findFirst().orElseThrow());
            };
            long faulted = System.nanoTime();
            awaitRecovered();
            faults.add(new ChaosVerdict.Fault(what, timeline.second(began), timeline.second(faulted), timeline.second(System.nanoTime())));
            timeline.fault(faults.get(faults.size() - 1));
        }

        private List<Integer> pick(int count) {
            List<Integer> all = new ArrayList<>(IntStream.rangeClosed(1, nodes).boxed().toList());
            Collections.shuffle(all, random);
            return all.subList(0, count);
        }

        private String kill(List<Integer> victims) throws Exception {
            victims.forEach(unreachable::add);
            cluster.kill(victims.stream().map(n -> "node" + n).toArray(String[]::new));
            Thread.sleep(10_000); // the survivors take over; then a supervisor starts it again
            for (int victim : victims) {
                cluster.restart("node" + victim);
                unreachable.remove(victim);
            }
            return "kill " + names(victims);
        }

        private String pause(int victim) throws Exception {
            unreachable.add(victim);
            cluster.pause("node" + victim);
            Thread.sleep(15_000 + random.nextInt(10_000)); // past the failure detector
            cluster.resume("node" + victim);
            unreachable.remove(victim);
            return "pause node" + victim;
        }

        private String cut(List<Integer> minority) throws Exception {
            for (int inside : minority) {
                for (int outside = 1; outside <= nodes; outside++) {
                    if (!minority.contains(outside)) {
                        cluster.cut(inside, outside);
                    }
                }
            }
            Thread.sleep(15_000 + random.nextInt(10_000));
            cluster.heal();
            return "cut " + names(minority);
        }

        private String flap(int a, int b) throws Exception {
            for (int i = 0; i < 4; i++) {
                cluster.cut(a, b);
                Thread.sleep(3_000);
                cluster.heal();
                Thread.sleep(3_000);
            }
            return "flap node" + a + "-node" + b;
        }

        private String names(List<Integer> victims) {
            return String.join("+", victims.stream().map(n -> "node" + n).toList());
        }
    }
}
