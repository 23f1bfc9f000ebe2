package org.siebog.perf.senderreceiver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The closing lines: Siebog's round trips per second over each reference's, per number of pairs, e.g.
 * {@code ratio siebog/jade: N=1 0.8x, N=10 3.1x}. One line per reference and payload, labelled when
 * there are several payloads.
 */
public final class RatioSummary {

    private RatioSummary() {
    }

    public static List<String> lines(List<Measurement> measurements, List<Reference> references, List<Integer> pairs, List<Integer> payloads) {
        List<String> lines = new ArrayList<>();
        for (Reference reference : references) {
            for (int payload : payloads) {
                lines.add(line(measurements, reference.system(), pairs, payload, payloads.size() > 1));
            }
        }
        return lines;
    }

    private static String line(List<Measurement> measurements, String other, List<Integer> pairs, int payload, boolean labelled) {
        StringJoiner ratios = new StringJoiner(", ");
        for (int n : pairs) {
            Optional<Measurement> siebog = find(measurements, Measurement.SIEBOG, n, payload);
            Optional<Measurement> reference = find(measurements, other, n, payload);
            ratios.add(siebog.isPresent() && reference.isPresent()
                    ? String.format(Locale.ROOT, "N=%d %.2fx", n,
                            siebog.get().result().roundTripsPerSec() / reference.get().result().roundTripsPerSec())
                    : "N=" + n + " n/a (" + failed(siebog, reference, other) + " failed)");
        }
        String label = labelled ? " (payload " + payload + " chars)" : "";
        return "ratio siebog/" + other + label + ": " + ratios;
    }

    private static String failed(Optional<Measurement> siebog, Optional<Measurement> reference, String other) {
        if (siebog.isEmpty() && reference.isEmpty()) {
            return "both";
        }
        return siebog.isEmpty() ? Measurement.SIEBOG : other;
    }

    private static Optional<Measurement> find(List<Measurement> measurements, String system, int pairs, int payload) {
        return measurements.stream()
                .filter(m -> m.system().equals(system) && m.pairs() == pairs && m.payloadChars() == payload)
                .findFirst();
    }
}
