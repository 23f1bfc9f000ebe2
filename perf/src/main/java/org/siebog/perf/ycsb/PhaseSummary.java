package org.siebog.perf.ycsb;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of YCSB's final report of one phase (its stdout), e.g. {@code [OVERALL], Throughput(ops/sec), 5993.4}
 * and {@code [UPDATE], 99thPercentileLatency(us), 14015}: {@code metrics} maps "UPDATE 99thPercentileLatency(us)"
 * to its value, return codes included ("UPDATE Return=ERROR").
 */
public record PhaseSummary(Map<String, Double> metrics) {

    public static PhaseSummary parse(List<String> lines) {
        Map<String, Double> metrics = new TreeMap<>();
        for (String line : lines) {
            String[] parts = line.split(", ");
            if (parts.length == 3 && parts[0].startsWith("[") && parts[0].endsWith("]")) {
                try {
                    metrics.put(parts[0].substring(1, parts[0].length() - 1) + " " + parts[1],
                            Double.parseDouble(parts[2].trim()));
                } catch (NumberFormatException e) {
                    // not a figure: skip it
                }
            }
        }
        return new PhaseSummary(metrics);
    }

    public double throughput() {
        return metrics.getOrDefault("OVERALL Throughput(ops/sec)", 0.0);
    }

    /** {@code operation}'s 99th percentile over the whole phase, in milliseconds (NaN when it did none). */
    public double p99Ms(String operation) {
        return metrics.getOrDefault(operation + " 99thPercentileLatency(us)", Double.NaN) / 1000;
    }

    public double avgMs(String operation) {
        return metrics.getOrDefault(operation + " AverageLatency(us)", Double.NaN) / 1000;
    }

    /** Operations that returned anything but OK. */
    public long failed(String operation) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().startsWith(operation + " Return=") && !e.getKey().endsWith("=OK"))
                .mapToLong(e -> e.getValue().longValue()).sum();
    }
}
