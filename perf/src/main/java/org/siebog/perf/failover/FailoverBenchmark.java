package org.siebog.perf.failover;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.siebog.perf.AdminLogin;
import org.siebog.perf.ToolOptions;

/**
 * Kills a node under load and measures what the cluster promises: how long until the killed
 * node's agents answer again, and how many messages were lost or handled twice.
 *
 * <p>{@code --agents} stateful Counter agents are placed on the victim node; {@code --writers}
 * threads post numbered INFORMs to them through a surviving node, each waiting for 202 before its
 * next, for {@code --warmup} seconds and then {@code --seconds} more; midway through those the victim is killed with SIGKILL (through the
 * launcher). Afterwards every Counter's report is compared with what was admitted: a counter that
 * handled fewer messages lost some, a repeat is a duplicate handling. Run it through
 * {@code perf/failover}, which starts and stops the cluster.
 */
public final class FailoverBenchmark {

    private static final Pattern REPORT = Pattern.compile(
            "handled=(\\d+) highest=(\\d+) gaps=(\\d+) repeats=(\\d+) outOfOrder=(\\d+)");
    public static final String CSV_HEADER = "nodes,agents,writers,messagesAdmitted,messagesHandled,lost,duplicated,outOfOrder,"
            + "firstAnswerMs,medianAnswerMs,lastAnswerMs,throughputBeforeKill,throughputAfterKill";

    private final HttpClient http = AdminLogin.client(Duration.ofSeconds(5));
    private final String survivor;
    private final String victimNode;
    private final Path launcher;
    private final int agents;
    private final int writers;
    private final int seconds;
    private final int warmupSeconds;

    FailoverBenchmark(String survivor, String victimNode, Path launcher, int agents, int writers, int seconds, int warmupSeconds) {
        this.survivor = survivor;
        this.victimNode = victimNode;
        this.launcher = launcher;
        this.agents = agents;
        this.writers = writers;
        this.seconds = seconds;
        this.warmupSeconds = warmupSeconds;
    }

    static final String USAGE = """
            Usage: perf/failover [options]

            Starts its own local cluster, puts Counter agents on one node, loads them through another,
            kills their node with SIGKILL, and prints the time until they answer again and the lost,
            duplicated and out-of-order counts (CSV: perf/results/failover.csv).

              --nodes N        nodes of the cluster it starts (default 3)
              --agents N       Counters on the node it kills (default 100)
              --writers N      writers posting to them through another node (default 8)
              --warmup S       load before the measured window, in seconds (default 15)
              --seconds S      the measured window; the kill comes in its middle (default 20)
              --victim NODE    the node it kills (default node2)
              --csv FILE       where the row is appended (default perf/results/failover.csv)
              --url URL        a node of the cluster (perf/failover gives the one it starts)
              --launcher PATH  the ./siebog that kills the node (perf/failover gives it)
              --help           show this
            """;

    public static void main(String[] args) throws Exception {
        ToolOptions options = ToolOptions.parseOrExit(USAGE, args, Map.of("--url", "http://127.0.0.1:8080/siebog", "--victim", "node2",
                "--launcher", "./siebog", "--agents", "100", "--writers", "8", "--seconds", "20", "--warmup", "15",
                "--csv", "perf/results/failover.csv", "--nodes", "3"), Set.of());
        String url = options.get("--url");
        String victim = options.get("--victim");
        Path launcher = Path.of(options.get("--launcher"));
        int agents = options.intValue("--agents");
        int writers = options.intValue("--writers");
        int seconds = options.intValue("--seconds");
        int warmup = options.intValue("--warmup");
        Path csv = Path.of(options.get("--csv"));
        int nodes = options.intValue("--nodes");
        String row = new FailoverBenchmark(url + "/api", victim, launcher, agents, writers, seconds, warmup).run(nodes);
        Files.createDirectories(csv.toAbsolutePath().getParent());
        if (!Files.exists(csv)) {
            Files.writeString(csv, CSV_HEADER + "\n");
        }
        Files.writeString(csv, row + "\n", java.nio.file.StandardOpenOption.APPEND);
        System.out.println(CSV_HEADER);
        System.out.println(row);
        System.out.println("(appended to " + csv + ")");
    }

    String run(int nodes) throws Exception {
        String prefix = "failover-" + System.currentTimeMillis() + "-";
        List<String> counters = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            String body = Json.createObjectBuilder().add("agentClass", "Counter").add("name", prefix + i).add("node", victimNode).build().toString();
            HttpResponse<String> started = post("agents", body);
            if (started.statusCode() != 201) {
                throw new IllegalStateException("could not start counter " + i + ": " + started.statusCode() + " " + started.body());
            }
            counters.add(prefix + i + "@siebog");
        }
        System.out.printf("%d counters on %s, %d writers through %s: %d s warm-up, then %d s with the kill at %d s%n",
                agents, victimNode, writers, survivor, warmupSeconds, seconds, seconds / 2);

        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong admitted = new AtomicLong();
        AtomicLong admittedAtKill = new AtomicLong();
        ConcurrentHashMap<String, AtomicLong> perCounter = new ConcurrentHashMap<>();
        counters.forEach(c -> perCounter.put(c, new AtomicLong()));
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            List<String> mine = new ArrayList<>();
            for (int i = w; i < counters.size(); i += writers) {
                mine.add(counters.get(i));
            }
            running.add(pool.submit(() -> {
                while (writing.get()) {
                    for (String counter : mine) {
                        long next = perCounter.get(counter).get() + 1;
                        HttpResponse<String> reply = post("messages", inform(counter, next));
                        if (reply.statusCode() != 202) {
                            throw new IllegalStateException("message " + next + " to " + counter + ": " + reply.statusCode() + " " + reply.body());
                        }
                        perCounter.get(counter).set(next);
                        admitted.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        // Warm up first (JIT, connections), so "before the kill" is the cluster's steady state.
        Thread.sleep(warmupSeconds * 1000L);
        long admittedAtStart = admitted.get();
        long start = System.nanoTime();
        Thread.sleep(seconds * 500L);
        admittedAtKill.set(admitted.get());
        long killedAt = System.nanoTime();
        System.out.printf("killing %s at %s%n", victimNode, java.time.LocalTime.now());
        Process kill = new ProcessBuilder(launcher.toString(), "kill", victimNode).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("could not kill " + victimNode);
        }
        long[] answeredAfterMs = timeUntilEachAnswers(counters, killedAt);
        Thread.sleep(Math.max(0, seconds * 1000L - (System.nanoTime() - start) / 1_000_000));
        writing.set(false);
        for (Future<?> f : running) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        long end = System.nanoTime();

        long handled = 0;
        long lost = 0;
        long duplicated = 0;
        long outOfOrder = 0;
        for (String counter : counters) {
            long expected = perCounter.get(counter).get();
            long[] report = settledReport(counter, expected);
            handled += report[0];
            lost += Math.max(0, expected - (report[0] - report[3]));
            duplicated += report[3];
            outOfOrder += report[4];
        }
        Arrays.sort(answeredAfterMs);
        double before = (admittedAtKill.get() - admittedAtStart) / ((killedAt - start) / 1e9);
        double after = (admitted.get() - admittedAtKill.get()) / ((end - killedAt) / 1e9);
        System.out.printf(Locale.ROOT, "admitted %d, handled %d, lost %d, duplicated %d, out of order %d%n",
                admitted.get(), handled, lost, duplicated, outOfOrder);
        System.out.printf(Locale.ROOT, "the killed node's agents answered again after %d ms (first), %d ms (median), %d ms (last)%n",
                answeredAfterMs[0], answeredAfterMs[answeredAfterMs.length / 2], answeredAfterMs[answeredAfterMs.length - 1]);
        System.out.printf(Locale.ROOT, "throughput: %.0f messages/s before the kill, %.0f after%n", before, after);
        return String.format(Locale.ROOT, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.0f,%.0f", nodes, agents, writers, admitted.get(), handled,
                lost, duplicated, outOfOrder, answeredAfterMs[0], answeredAfterMs[answeredAfterMs.length / 2],
                answeredAfterMs[answeredAfterMs.length - 1], before, after);
    }

    /**
     * For each counter, ms from the kill until it answers a QUERY_REF. Every counter has an asker
     * of its own: with fewer, a counter still being taken over holds up the askers of counters
     * that are back already, and their time is measured late.
     */
    private long[] timeUntilEachAnswers(List<String> counters, long killedAt) throws Exception {
        long[] answered = new long[counters.size()];
        ExecutorService askers = Executors.newFixedThreadPool(counters.size());
        List<Future<?>> asks = new ArrayList<>();
        for (int i = 0; i < counters.size(); i++) {
            int index = i;
            asks.add(askers.submit(() -> {
                while (true) {
                    HttpResponse<String> reply = post("messages?awaitReplyMs=500", query(counters.get(index)));
                    if (reply.statusCode() == 200) {
                        answered[index] = (System.nanoTime() - killedAt) / 1_000_000;
                        return null;
                    }
                    if ((System.nanoTime() - killedAt) > TimeUnit.SECONDS.toNanos(120)) {
                        throw new IllegalStateException(counters.get(index) + " did not answer within 120 s of the kill");
                    }
                    Thread.sleep(20);
                }
            }));
        }
        for (Future<?> ask : asks) {
            ask.get();
        }
        askers.shutdown();
        return answered;
    }

    /** handled, highest, gaps, repeats, outOfOrder, once the counter has handled what was admitted (or 60 s). */
    private long[] settledReport(String counter, long expected) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        long[] last = null;
        while (System.currentTimeMillis() < deadline) {
            HttpResponse<String> reply = post("messages?awaitReplyMs=5000", query(counter));
            if (reply.statusCode() == 200) {
                String content = Json.createReader(new StringReader(reply.body())).readObject().getString("content");
                Matcher m = REPORT.matcher(content);
                if (!m.matches()) {
                    throw new IllegalStateException("unexpected report " + content);
                }
                last = new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                        Long.parseLong(m.group(4)), Long.parseLong(m.group(5))};
                if (last[0] - last[3] >= expected) {
                    return last;
                }
            }
            Thread.sleep(200);
        }
        if (last == null) {
            throw new IllegalStateException(counter + " never answered");
        }
        return last;
    }

    private static String inform(String counter, long seq) {
        return Json.createObjectBuilder().add("performative", "INFORM").add("receivers", Json.createArrayBuilder().add(counter))
                .add("conversationId", "load").add("content", Long.toString(seq)).build().toString();
    }

    private static String query(String counter) {
        JsonObject q = Json.createObjectBuilder().add("performative", "QUERY_REF").add("receivers", Json.createArrayBuilder().add(counter)).build();
        return q.toString();
    }

    private HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(survivor + "/" + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

}
