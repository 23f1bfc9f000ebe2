package org.siebog.perf.ycsb;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import javax.imageio.ImageIO;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * After perf/ycsb: reads each phase's YCSB output (status lines from stderr, summary from stdout),
 * writes the per-second CSV and the PNG (throughput and update p99 over time, every binding), and prints
 * each run phase's figures, the Siebog/direct ratio and whether the targets hold.
 *
 * <pre>YcsbReport --phase direct:run:STDERR:STDOUT --phase siebog:run:STDERR:STDOUT
 *            --csv FILE --png FILE --target OPS --warmup S</pre>
 */
public final class YcsbReport {

    static final String CSV_HEADER = "binding,phase,second,opsPerSec,updateCount,updateAvgUs,updateP99Us,"
            + "readCount,readAvgUs,readP99Us,insertCount,insertAvgUs,insertP99Us";

    /** The targets: ≥ 6,000 ops/s sustained, ≥ 70% of direct Cassandra, update p99 < 20 ms. */
    static final double MIN_SUSTAINED_OPS = 6000;
    static final double MIN_RATIO = 0.7;
    static final double MAX_UPDATE_P99_MS = 20;

    private YcsbReport() {
    }

    public static void main(String[] args) throws IOException {
        List<PhaseRun> runs = new ArrayList<>();
        Path csv = null;
        Path png = null;
        double target = 6000;
        long warmup = 10;
        for (int i = 0; i < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--phase" -> runs.add(read(value));
                case "--csv" -> csv = Path.of(value);
                case "--png" -> png = Path.of(value);
                case "--target" -> target = Double.parseDouble(value);
                case "--warmup" -> warmup = Long.parseLong(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (csv != null) {
            writeCsv(runs, csv);
            say("per-second figures: %s", csv);
        }
        if (png != null) {
            drawChart(runs.stream().filter(r -> !r.phase().equals("load")).toList(), png);
            say("chart: %s", png);
        }
        for (String line : verdict(runs, target, warmup)) {
            say("%s", line);
        }
    }

    private static PhaseRun read(String spec) throws IOException {
        String[] parts = spec.split(":", 4);
        List<StatusLine> seconds = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(parts[2]))) {
            Optional<StatusLine> status = StatusLine.parse(line);
            // YCSB prints the last second twice (once more when the phase ends): keep the first.
            status.filter(s -> seconds.isEmpty() || s.second() > seconds.get(seconds.size() - 1).second())
                    .ifPresent(seconds::add);
        }
        return new PhaseRun(parts[0], parts[1], seconds, PhaseSummary.parse(Files.readAllLines(Path.of(parts[3]))));
    }

    static String csvRow(String binding, String phase, StatusLine s) {
        IntervalLatency update = s.latency("UPDATE");
        IntervalLatency read = s.latency("READ");
        IntervalLatency insert = s.latency("INSERT");
        return String.format(Locale.ROOT, "%s,%s,%d,%.1f,%d,%.1f,%d,%d,%.1f,%d,%d,%.1f,%d", binding, phase, s.second(),
                s.opsPerSec(), update.count(), update.avgUs(), update.p99Us(), read.count(), read.avgUs(), read.p99Us(),
                insert.count(), insert.avgUs(), insert.p99Us());
    }

    private static void writeCsv(List<PhaseRun> runs, Path csv) throws IOException {
        Files.createDirectories(csv.toAbsolutePath().getParent());
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv))) {
            out.println(CSV_HEADER);
            for (PhaseRun run : runs) {
                run.seconds().forEach(s -> out.println(csvRow(run.binding(), run.phase(), s)));
            }
        }
    }

    /** Two panels, one above the other: ops/s, then update p99 (ms), per second, one line per binding. */
    private static void drawChart(List<PhaseRun> runs, Path png) throws IOException {
        XYChart throughput = panel("Throughput (YCSB run phase, per second)", "ops/s");
        XYChart latency = panel("Update latency, 99th percentile of each second", "ms");
        for (PhaseRun run : runs) {
            if (run.seconds().isEmpty()) {
                continue;
            }
            // Aligned on each phase's first operations, so that bindings whose init took longer compare.
            long first = run.firstActiveSecond();
            double[] x = run.seconds().stream().mapToDouble(s -> s.second() - first).toArray();
            String name = run.binding() + (run.phase().equals("run") ? "" : " (" + run.phase() + ")");
            throughput.addSeries(name, x, values(run, StatusLine::opsPerSec)).setMarker(SeriesMarkers.NONE);
            latency.addSeries(name, x, values(run, s -> s.latency("UPDATE").p99Us() / 1000.0))
                    .setMarker(SeriesMarkers.NONE);
        }
        BufferedImage top = BitmapEncoder.getBufferedImage(throughput);
        BufferedImage bottom = BitmapEncoder.getBufferedImage(latency);
        BufferedImage both = new BufferedImage(top.getWidth(), top.getHeight() + bottom.getHeight(),
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = both.createGraphics();
        g.drawImage(top, 0, 0, null);
        g.drawImage(bottom, 0, top.getHeight(), null);
        g.dispose();
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(both, "png", png.toFile());
    }

    private static XYChart panel(String title, String yAxis) {
        return new XYChartBuilder().width(1100).height(420).title(title).xAxisTitle("second since the first operations").yAxisTitle(yAxis).build();
    }

    private static double[] values(PhaseRun run, ToDoubleFunction<StatusLine> value) {
        return run.seconds().stream().mapToDouble(value).toArray();
    }

    /** What perf/ycsb prints at the end: each run phase's figures, the ratio and the three targets. */
    static List<String> verdict(List<PhaseRun> runs, double target, long warmup) {
        List<String> lines = new ArrayList<>();
        List<PhaseRun> direct = new ArrayList<>();
        PhaseRun siebog = null;
        for (PhaseRun run : runs) {
            PhaseSummary s = run.summary();
            if (run.phase().equals("load")) {
                lines.add(String.format(Locale.ROOT, "%-6s load: %.0f inserts/s, insert avg %.1f ms p99 %.1f ms, %d failed",
                        run.binding(), s.throughput(), s.avgMs("INSERT"), s.p99Ms("INSERT"), s.failed("INSERT")));
                continue;
            }
            double reference = target > 0 ? target : run.steadyOpsPerSec(warmup);
            lines.add(String.format(Locale.ROOT,
                    "%-6s %s: %.0f ops/s (YCSB overall), %.0f ops/s after %d s warm-up (%.0f%% of those seconds at >= 90%% of %.0f); "
                            + "update avg %.1f ms p99 %.1f ms; read avg %.1f ms p99 %.1f ms; failed: %d updates, %d reads",
                    run.binding(), run.phase(), s.throughput(), run.steadyOpsPerSec(warmup), warmup,
                    100 * run.shareOfSecondsAtLeast90Percent(warmup, reference), reference, s.avgMs("UPDATE"),
                    s.p99Ms("UPDATE"), s.avgMs("READ"), s.p99Ms("READ"), s.failed("UPDATE"), s.failed("READ")));
            if (run.binding().equals("direct")) {
                direct.add(run);
            } else if (run.binding().equals("siebog")) {
                siebog = run;
            }
        }
        if (siebog == null) {
            return lines;
        }
        double ops = siebog.steadyOpsPerSec(warmup);
        lines.add(sustained(siebog, target, warmup));
        if (!direct.isEmpty()) {
            // Steady means, not YCSB's overall figures: those include each binding's init (connecting, or
            // joining thousands of devices) and the JIT's warm-up, which differ between the bindings.
            // Direct runs before and after Siebog: their mean cancels a machine that drifts meanwhile.
            double directOps = direct.stream().mapToDouble(r -> r.steadyOpsPerSec(warmup)).average().orElseThrow();
            double ratio = ops / directOps;
            lines.add(String.format(Locale.ROOT, "target: Siebog/direct throughput (after warm-up) >= %.2f: %s (%.0f / %.0f%s = %.2f)",
                    MIN_RATIO, holds(ratio >= MIN_RATIO), ops, directOps, direct.size() > 1 ? " (mean of the direct runs before and after)" : "",
                    ratio));
        }
        double p99 = siebog.summary().p99Ms("UPDATE");
        lines.add(String.format(Locale.ROOT, "target: update p99 < %.0f ms: %s (%.1f ms)", MAX_UPDATE_P99_MS,
                holds(p99 < MAX_UPDATE_P99_MS), p99));
        return lines;
    }

    /**
     * Whether Siebog held at least {@link #MIN_SUSTAINED_OPS}: a steady mean of 98% or more of its
     * target (throttled) or of that minimum (unthrottled, {@code target} 0), with 95% of the steady
     * seconds at 90% of it or more.
     */
    static String sustained(PhaseRun siebog, double target, long warmup) {
        double ops = siebog.steadyOpsPerSec(warmup);
        double level = target > 0 ? target : MIN_SUSTAINED_OPS;
        double stableShare = siebog.shareOfSecondsAtLeast90Percent(warmup, level);
        boolean sustained = ops >= 0.98 * level && stableShare >= 0.95 && level >= MIN_SUSTAINED_OPS;
        return String.format(Locale.ROOT, "target: >= %.0f ops/s sustained (%s; >= 95%% of seconds at >= 90%% of it): %s "
                + "(%.0f ops/s, %.0f%% of seconds at >= 90%% of %.0f)", MIN_SUSTAINED_OPS,
                target > 0 ? "throttled at " + Math.round(target) + ", a steady mean >= 98% of that" : "unthrottled",
                holds(sustained), ops, 100 * stableShare, level);
    }

    private static String holds(boolean holds) {
        return holds ? "HOLDS" : "MISSED";
    }

    private static void say(String format, Object... args) {
        System.out.println("[ycsb] " + String.format(Locale.ROOT, format, args));
    }
}
