package org.siebog.perf.senderreceiver;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * The benchmark's chart, a PNG beside its CSV: round trips per second against the number of pairs,
 * one bar per system (and payload, when there are several), so Siebog and its references stand side
 * by side at each N. A failed run leaves its bar at zero.
 */
final class ResultsChart {

    private ResultsChart() {
    }

    static Path pngBeside(Path csv) {
        String name = csv.getFileName().toString();
        return csv.resolveSibling((name.endsWith(".csv") ? name.substring(0, name.length() - 4) : name) + ".png");
    }

    static void write(List<Measurement> measurements, List<String> systems, List<Integer> pairs, List<Integer> payloads, int nodes, Path png)
            throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500)
                .title("Sender/Receiver, " + nodes + " node" + (nodes == 1 ? "" : "s") + ": round trips per second")
                .xAxisTitle("pairs").yAxisTitle("round trips/s").build();
        List<String> x = pairs.stream().map(String::valueOf).toList();
        for (String system : systems) {
            for (int payload : payloads) {
                List<Double> y = new ArrayList<>();
                boolean any = false;
                for (int n : pairs) {
                    Optional<Measurement> m = measurements.stream()
                            .filter(r -> r.system().equals(system) && r.payloadChars() == payload && r.pairs() == n).findFirst();
                    any |= m.isPresent();
                    y.add(m.map(r -> r.result().roundTripsPerSec()).orElse(0.0));
                }
                if (any) {
                    chart.addSeries(payloads.size() == 1 ? system : system + ", " + payload + " chars", x, y);
                }
            }
        }
        if (!chart.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
