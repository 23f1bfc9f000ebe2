package org.siebog.cluster;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

import javax.imageio.ImageIO;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A {@link Chaos} run second by second: what each kind admitted in that second and how many Counters
 * a client found unavailable, sampled once a second, and the faults; written as a CSV and a PNG
 * (faults on top, throughput and unavailability below) named {@code chaos-<time>}.
 */
final class ChaosTimeline {

    /** One second: admissions of each kind in it, and the Counters unavailable at its end. */
    private record Second(double at, Map<String, Long> admitted, long unavailable) {
    }

    private final Path out;
    private final List<Second> seconds = new CopyOnWriteArrayList<>();
    private final List<ChaosVerdict.Fault> faults = new CopyOnWriteArrayList<>();
    private volatile boolean sampling;
    private Thread sampler;
    private long began;

    ChaosTimeline(Path out) {
        this.out = out;
    }

    /** Seconds since the load began. */
    double second(long nanoTime) {
        return (nanoTime - began) / 1e9;
    }

    /** Samples {@code totals} (each a running count of admissions) and {@code unavailable} once a second from now. */
    void start(long loadBegan, Map<String, LongSupplier> totals, LongSupplier unavailable) {
        began = loadBegan;
        sampling = true;
        Map<String, LongSupplier> kinds = new LinkedHashMap<>(totals);
        sampler = new Thread(() -> {
            Map<String, Long> last = new LinkedHashMap<>();
            kinds.keySet().forEach(kind -> last.put(kind, 0L));
            while (sampling) {
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException e) {
                    return;
                }
                Map<String, Long> admitted = new LinkedHashMap<>();
                kinds.forEach((kind, total) -> {
                    long now = total.getAsLong();
                    admitted.put(kind, now - last.put(kind, now));
                });
                seconds.add(new Second(second(System.nanoTime()), admitted, unavailable.getAsLong()));
            }
        }, "chaos-timeline");
        sampler.setDaemon(true);
        sampler.start();
    }

    void fault(ChaosVerdict.Fault fault) {
        faults.add(fault);
    }

    void stop() throws InterruptedException {
        sampling = false;
        sampler.join(5_000);
    }

    /** Writes the CSV and the PNG, and prints where they are with the verdict's summary. */
    void write(ChaosVerdict verdict) throws IOException {
        Files.createDirectories(out);
        String name = "chaos-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path csv = out.resolve(name + ".csv");
        Path png = out.resolve(name + ".png");
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
            List<String> kinds = seconds.isEmpty() ? List.of() : List.copyOf(seconds.get(0).admitted().keySet());
            w.println("second," + String.join(",", kinds.stream().map(k -> k.replace(' ', '_') + "_per_s").toList())
                    + ",counters_unavailable,fault");
            for (Second s : seconds) {
                List<String> row = new ArrayList<>();
                row.add(String.format("%.1f", s.at()));
                kinds.forEach(k -> row.add(Long.toString(s.admitted().get(k))));
                row.add(Long.toString(s.unavailable()));
                row.add(faults.stream().filter(f -> f.began() <= s.at() && s.at() <= f.ended()).map(ChaosVerdict.Fault::what).findFirst().orElse(""));
                w.println(String.join(",", row));
            }
        }
        draw(png);
        System.out.println(verdict.summary());
        System.out.println("chaos: timeline " + csv + ", chart " + png);
    }

    private void draw(Path png) throws IOException {
        XYChart faultsPanel = panel("Faults (from the fault to the cluster's recovery)", "", 220);
        faultsPanel.getStyler().setYAxisTicksVisible(false);
        List<String> lanes = new ArrayList<>();
        for (ChaosVerdict.Fault f : faults) {
            String kind = f.what().split(" ")[0];
            if (!lanes.contains(kind)) {
                lanes.add(kind);
            }
            double lane = lanes.indexOf(kind) + 1;
            XYSeries fault = faultsPanel.addSeries(f.what() + " @" + Math.round(f.began()), new double[] {f.began(), f.ended()},
                    new double[] {lane, lane});
            fault.setMarker(SeriesMarkers.NONE);
            XYSeries recovering = faultsPanel.addSeries(f.what() + " @" + Math.round(f.began()) + " recovering",
                    new double[] {f.ended(), f.recovered()}, new double[] {lane - 0.2, lane - 0.2});
            recovering.setMarker(SeriesMarkers.NONE);
            recovering.setShowInLegend(false);
        }
        // The same seconds across as the panels below, a lane per kind of fault.
        double last = Math.max(seconds.isEmpty() ? 0 : seconds.get(seconds.size() - 1).at(),
                faults.stream().mapToDouble(ChaosVerdict.Fault::recovered).max().orElse(0));
        faultsPanel.getStyler().setXAxisMin(0.0).setXAxisMax(last).setYAxisMin(0.0).setYAxisMax(lanes.size() + 0.5);
        XYChart throughput = panel("Admitted per second, by kind", "messages/s", 420);
        XYChart unavailable = panel("Counters waiting over a second for an admission", "counters", 260);
        if (!seconds.isEmpty()) {
            double[] x = seconds.stream().mapToDouble(Second::at).toArray();
            for (String kind : seconds.get(0).admitted().keySet()) {
                throughput.addSeries(kind, x, seconds.stream().mapToDouble(s -> s.admitted().get(kind)).toArray()).setMarker(SeriesMarkers.NONE);
            }
            unavailable.addSeries("unavailable", x, seconds.stream().mapToDouble(Second::unavailable).toArray()).setMarker(SeriesMarkers.NONE);
        }
        List<BufferedImage> panels = List.of(BitmapEncoder.getBufferedImage(faultsPanel), BitmapEncoder.getBufferedImage(throughput),
                BitmapEncoder.getBufferedImage(unavailable));
        BufferedImage all = new BufferedImage(panels.get(0).getWidth(), panels.stream().mapToInt(BufferedImage::getHeight).sum(),
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = all.createGraphics();
        int y = 0;
        for (BufferedImage panel : panels) {
            g.drawImage(panel, 0, y, null);
            y += panel.getHeight();
        }
        g.dispose();
        ImageIO.write(all, "png", png.toFile());
    }

    private static XYChart panel(String title, String yAxis, int height) {
        XYChart chart = new XYChartBuilder().width(1200).height(height).title(title).xAxisTitle("seconds since the load began")
                .yAxisTitle(yAxis).build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
        return chart;
    }
}
