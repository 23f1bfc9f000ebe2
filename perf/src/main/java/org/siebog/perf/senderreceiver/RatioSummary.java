package org.siebog.perf.senderreceiver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The closing line(s): Siebog's round trips per second over JADE's, per number of pairs, e.g.
 * {@code ratio siebog/jade: N=1 0.8x, N=10 3.1x}. One line per payload, labelled when there are several.
 */
public final class RatioSummary {

    private RatioSummary() {
    }

    public static List<String> lines(List<Measurement> measurements, List<Integer> pairs, List<Integer> payloads) {
        List<String> lines = new ArrayList<>();
        for (int payload : payloads) {
            StringJoiner ratios = new StringJoiner(", ");
            for (int n : pairs) {
                Optional<Measurement> siebog = find(measurements, Measurement.SIEBOG, n, payload);
                Optional<Measurement> jade = find(measurements, Measurement.JADE, n, payload);
                ratios.add(siebog.isPresent() && jade.isPresent()
                        ? String.format(Locale.ROOT, "N=%d %.1fx", n,
                                siebog.get().result().roundTripsPerSec() / jade.get().result().roundTripsPerSec())
                        : "N=" + n + " n/a (" + failed(siebog, jade) + " failed)");
            }
            String label = payloads.size() > 1 ? " (payload " + payload + " chars)" : "";
            lines.add("ratio siebog/jade" + label + ": " + ratios);
        }
        return lines;
    }

    private static String failed(Optional<Measurement> siebog, Optional<Measurement> jade) {
        if (siebog.isEmpty() && jade.isEmpty()) {
            return "both";
        }
        return siebog.isEmpty() ? Measurement.SIEBOG : Measurement.JADE;
    }

    private static Optional<Measurement> find(List<Measurement> measurements, String system, int pairs, int payload) {
        return measurements.stream()
                .filter(m -> m.system().equals(system) && m.pairs() == pairs && m.payloadChars() == payload)
                .findFirst();
    }
}
