package org.siebog.perf.df;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.siebog.perf.AdminLogin;
import org.siebog.perf.ToolOptions;

/**
 * The directory facilitator benchmark: Siebog's DF (through the examples' {@code df-bench} endpoint
 * of a running node or cluster) and JADE's DF (in a JVM of its own, {@link JadeDfRun}), one after
 * the other for each size, in one run. Each side: the same registrations (32 services per holder
 * agent, {@code types} types), {@code searchers} agents searching {@code searches} times one search
 * after another by a random type with at most {@code limit} results, after a warm-up of as many.
 * Prints a table, writes CSV ({@code perf/results/df-<time>.csv}) and a chart (PNG beside it).
 *
 * <pre>perf/df [--url URL] [--nodes N] [--registrations 10000,100000] [--types 1000] [--searchers 4]
 *        [--searches 500] [--limit 100] [--searchers-on NODE] [--warmups 1] [--no-jade]</pre>
 * {@code --nodes} labels the rows: start the cluster with that many nodes ({@code ./siebog run --nodes N}).
 * {@code --searchers-on} pins every searcher to one node, so every search runs there and the other
 * nodes only hold their copies of the directory; without it, searchers are placed as any agent.
 * {@code --warmups} is the number of Siebog runs before the measured one: a node compiles its hot
 * code in the background, and on two shared cores its compiler queue (hundreds of methods after a
 * large load) takes tens of seconds to drain, so one short warm-up leaves the measured run partly
 * in code not yet optimised (see perf/README.md, "Directory facilitator").
 */
public final class DfBenchmark {

    private record Row(String system, int nodes, int registrations, long searchesPerSecond, long p50Micros, long p99Micros,
            long meanMicros, double loadSeconds, double entriesPerSearch) {

        String csv() {
            return String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%.3f,%.1f", system, nodes, registrations, searchesPerSecond,
                    p50Micros, p99Micros, meanMicros, loadSeconds, entriesPerSearch);
        }
    }

    private DfBenchmark() {
    }

    static final String USAGE = """
            Usage: perf/df [options]

            Siebog's directory facilitator (a running node or cluster with the examples, e.g.
            ./siebog run --nodes 2) against JADE's DF, in one run: registrations are loaded, then
            searchers search them; prints searches/s and latencies, writes CSV and a PNG chart under
            perf/results/.

              --url URL              the Siebog node (default http://127.0.0.1:8080/siebog)
              --nodes N              labels the rows: the cluster's size (default 1)
              --registrations LIST   entries, comma-separated (default 10000,100000)
              --types N              service types the entries spread over (default 1000)
              --searchers N          concurrent searchers (default 4)
              --searches N           searches per searcher (default 500)
              --limit N              entries per search at most (default 100)
              --searchers-on NODE    every searcher on that node (default: spread over the nodes)
              --warmups N            Siebog runs before the measured one, at least 1 (default 1)
              --no-jade              Siebog only
              --help                 show this
            """;

    public static void main(String[] args) throws Exception {
        ToolOptions options = ToolOptions.parseOrExit(USAGE, args, Map.of("--url", "http://127.0.0.1:8080/siebog", "--nodes", "1",
                "--registrations", "10000,100000", "--types", "1000", "--searchers", "4", "--searches", "500", "--limit", "100",
                "--searchers-on", "", "--warmups", "1"), Set.of("--no-jade"));
        boolean jade = !options.flag("--no-jade");
        int nodes = options.intValue("--nodes");
        if (options.intValue("--warmups") < 1) {
            System.err.println("--warmups must be at least 1: the first run loads the registrations");
            System.exit(2);
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path csv = Path.of("perf", "results", "df-" + stamp + ".csv");
        Files.createDirectories(csv.getParent());
        List<Row> rows = new ArrayList<>();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv))) {
            out.println("system,nodes,registrations,searchesPerSecond,p50Micros,p99Micros,meanMicros,loadSeconds,entriesPerSearch");
            for (String size : options.get("--registrations").split(",")) {
                int registrations = Integer.parseInt(size.trim());
                List<Row> now = new ArrayList<>();
                now.add(siebog(options, nodes, registrations));
                if (jade) {
                    now.add(jade(options, registrations));
                }
                for (Row row : now) {
                    out.println(row.csv());
                    out.flush();
                    System.out.printf(Locale.ROOT, "%-6s nodes=%d registrations=%,d: %,d searches/s, p50 %,d µs, p99 %,d µs, mean %,d µs, "
                            + "%.1f entries per search, loaded in %.1f s%n", row.system(), row.nodes(), row.registrations(),
                            row.searchesPerSecond(), row.p50Micros(), row.p99Micros(), row.meanMicros(), row.entriesPerSearch(),
                            row.loadSeconds());
                }
                if (now.size() == 2) {
                    System.out.printf(Locale.ROOT, "       siebog/jade at %,d: %.1fx the searches/s, %.1fx faster at p50%n", registrations,
                            (double) now.get(0).searchesPerSecond() / now.get(1).searchesPerSecond(),
                            (double) now.get(1).p50Micros() / now.get(0).p50Micros());
                }
                rows.addAll(now);
            }
        }
        Path png = Path.of(csv.toString().replace(".csv", ".png"));
        chart(rows, png);
        System.out.println("CSV: " + csv + "  chart: " + png);
    }

    /** {@code --warmups} warm-up runs, then the measured one (the registrations are loaded by the first and kept). */
    private static Row siebog(ToolOptions options, int nodes, int registrations) throws IOException, InterruptedException {
        HttpClient http = AdminLogin.client(Duration.ofSeconds(10));
        var request = Json.createObjectBuilder().add("registrations", registrations).add("types", Integer.parseInt(options.get("--types")))
                .add("searchers", Integer.parseInt(options.get("--searchers"))).add("searches", Integer.parseInt(options.get("--searches")))
                .add("limit", Integer.parseInt(options.get("--limit")));
        if (!options.get("--searchers-on").isEmpty()) {
            request.add("searchersOn", options.get("--searchers-on")); // every search on that node, the others only holding copies
        }
        String body = request.build().toString();
        URI runs = URI.create(options.get("--url").replaceAll("/siebog/?$", "") + "/siebog-examples/api/df-bench/runs");
        JsonObject warm = post(http, runs, body);
        for (int more = Integer.parseInt(options.get("--warmups")); more > 1; more--) {
            post(http, runs, body);
        }
        JsonObject measured = post(http, runs, body);
        return new Row("siebog", nodes, registrations, measured.getJsonNumber("searchesPerSecond").longValue(),
                measured.getJsonNumber("p50Micros").longValue(), measured.getJsonNumber("p99Micros").longValue(),
                measured.getJsonNumber("meanMicros").longValue(), warm.getJsonNumber("loadSeconds").doubleValue(),
                measured.getJsonNumber("entriesPerSearch").doubleValue());
    }

    private static JsonObject post(HttpClient http, URI uri, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(20))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("POST " + uri + ": " + response.statusCode() + " " + response.body());
        }
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    private static Row jade(ToolOptions options, int registrations) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx2g", "-cp", System.getProperty("java.class.path"), JadeDfRun.class.getName(),
                Integer.toString(registrations), options.get("--types"), options.get("--searchers"), options.get("--searches"),
                options.get("--limit"), "11099");
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String last = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                last = line;
            }
        }
        if (process.waitFor() != 0 || last == null) {
            throw new IllegalStateException("JADE's run failed (exit " + process.exitValue() + "), last line: " + last);
        }
        String[] f = last.trim().split(" ");
        return new Row("jade", 1, registrations, Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                Double.parseDouble(f[4]), Double.parseDouble(f[5]));
    }

    /** Searches per second by registrations, one line per system; both axes logarithmic (they differ by orders of magnitude). */
    private static void chart(List<Row> rows, Path png) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(500).title("Directory facilitator: searches per second")
                .xAxisTitle("registrations (log)").yAxisTitle("searches/s (log)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        for (String system : List.of("siebog", "jade")) {
            List<Row> of = rows.stream().filter(r -> r.system().equals(system)).toList();
            if (!of.isEmpty()) {
                chart.addSeries(system + " (" + of.get(0).nodes() + " node" + (of.get(0).nodes() == 1 ? "" : "s") + ")",
                        of.stream().mapToDouble(Row::registrations).toArray(), of.stream().mapToDouble(Row::searchesPerSecond).toArray());
            }
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
