package org.siebog.perf.topics;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.siebog.perf.AdminLogin;
import org.siebog.perf.ToolOptions;

/**
 * The topic fan-out benchmark: through the examples' {@code topic-bench} endpoint of a running node
 * or cluster, {@code messages} numbered messages to each of {@code subscribers} stateful Counters
 * (placed on the nodes in turn), once as one publish per message ({@code topic}) and once as one
 * post per message and subscriber ({@code sends}), the two modes alternating round after round so
 * that their ratio is measured side by side. Each run first makes every subscriber answer once
 * (a warm-up that also drains them), and checks that every subscriber counted every message of the
 * run with no gap or repeat. Prints a table and the median of each, writes CSV
 * ({@code perf/results/topics-<time>.csv}) and a chart (PNG beside it).
 *
 * <pre>perf/topics [--url URL] [--nodes N] [--subscribers 100,1000] [--messages 100] [--window 16] [--rounds 3]</pre>
 * {@code --nodes} labels the rows: start the cluster with that many nodes ({@code ./siebog run --nodes N}).
 */
public final class TopicBenchmark {

    private record Row(String mode, int nodes, int subscribers, int round, int messages, long deliveredPerSecond, double seconds,
            String perNode) {

        String csv() {
            return String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%.3f,%s", mode, nodes, subscribers, round, messages, deliveredPerSecond,
                    seconds, perNode.replace(',', ';'));
        }
    }

    private static final List<String> MODES = List.of("topic", "sends");

    private TopicBenchmark() {
    }

    static final String USAGE = """
            Usage: perf/topics [options]

            Topic fan-out on a running node or cluster with the examples (e.g. ./siebog run --nodes 2):
            numbered messages to stateful subscribers, once as one publish per message and once as
            one post per message and subscriber, alternating round after round; prints the rates and
            their medians, writes CSV and a PNG chart under perf/results/.

              --url URL            the Siebog node (default http://127.0.0.1:8080/siebog)
              --nodes N            labels the rows: the cluster's size (default 1)
              --subscribers LIST   subscribers, comma-separated (default 100,1000)
              --messages N         messages per run (default 100)
              --window N           messages in flight at once (default 16)
              --rounds N           rounds of both modes (default 3)
              --help               show this
            """;

    public static void main(String[] args) throws Exception {
        ToolOptions options = ToolOptions.parseOrExit(USAGE, args, Map.of("--url", "http://127.0.0.1:8080/siebog", "--nodes", "1",
                "--subscribers", "100,1000", "--messages", "100", "--window", "16", "--rounds", "3"), Set.of());
        int nodes = options.intValue("--nodes");
        int rounds = options.intValue("--rounds");
        HttpClient http = AdminLogin.client(Duration.ofSeconds(10));
        URI runs = URI.create(options.get("--url").replaceAll("/siebog/?$", "") + "/siebog-examples/api/topic-bench/runs");
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path csv = Path.of("perf", "results", "topics-" + stamp + ".csv");
        Files.createDirectories(csv.getParent());
        List<Row> rows = new ArrayList<>();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv))) {
            out.println("mode,nodes,subscribers,round,messages,deliveredPerSecond,seconds,perNode");
            for (String size : options.get("--subscribers").split(",")) {
                int subscribers = Integer.parseInt(size.trim());
                for (int round = 1; round <= rounds; round++) {
                    for (String mode : round % 2 == 1 ? MODES : List.of(MODES.get(1), MODES.get(0))) {
                        JsonObject result = post(http, runs, Json.createObjectBuilder().add("mode", mode).add("subscribers", subscribers)
                                .add("messages", Integer.parseInt(options.get("--messages")))
                                .add("window", Integer.parseInt(options.get("--window"))).build().toString());
                        Row row = new Row(mode, nodes, subscribers, round, result.getInt("messages"),
                                result.getJsonNumber("deliveredPerSecond").longValue(), result.getJsonNumber("seconds").doubleValue(),
                                result.getJsonObject("perNode").toString());
                        rows.add(row);
                        out.println(row.csv());
                        out.flush();
                        System.out.printf(Locale.ROOT, "%-5s nodes=%d subscribers=%,d round %d: %,d delivered/s (%d messages in %.2f s; subscribers per node %s)%n",
                                mode, nodes, subscribers, round, row.deliveredPerSecond(), row.messages(), row.seconds(), row.perNode());
                    }
                }
                long topic = median(rows, "topic", subscribers);
                long sends = median(rows, "sends", subscribers);
                System.out.printf(Locale.ROOT, "      medians at %,d subscribers: topic %,d, sends %,d delivered/s: topic/sends %.2fx%n",
                        subscribers, topic, sends, (double) topic / sends);
            }
            post(http, runs, "{\"subscribers\": 0}");
        }
        Path png = Path.of(csv.toString().replace(".csv", ".png"));
        chart(rows, png, options.get("--subscribers").split(","));
        System.out.println("CSV: " + csv + "  chart: " + png);
    }

    private static long median(List<Row> rows, String mode, int subscribers) {
        long[] values = rows.stream().filter(r -> r.mode().equals(mode) && r.subscribers() == subscribers)
                .mapToLong(Row::deliveredPerSecond).sorted().toArray();
        return values.length % 2 == 1 ? values[values.length / 2] : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }

    private static JsonObject post(HttpClient http, URI uri, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(20))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("POST " + uri + " " + body + ": " + response.statusCode() + " " + response.body());
        }
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    /** Median delivered messages per second by subscribers, one bar per mode. */
    private static void chart(List<Row> rows, Path png, String[] sizes) throws IOException {
        int nodes = rows.isEmpty() ? 1 : rows.get(0).nodes();
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500)
                .title("Topic fan-out, " + nodes + " node" + (nodes == 1 ? "" : "s") + ": messages delivered per second (median)")
                .xAxisTitle("subscribers").yAxisTitle("delivered/s").build();
        List<String> x = new ArrayList<>();
        for (String size : sizes) {
            x.add(size.trim());
        }
        for (String mode : MODES) {
            List<Long> y = x.stream().map(size -> median(rows, mode, Integer.parseInt(size))).toList();
            chart.addSeries(mode.equals("topic") ? "one publish per message" : "one send per subscriber", x, y);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
