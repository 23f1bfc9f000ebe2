package org.siebog.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a {@link Chaos} run found: per kind of message the counts its promise is checked by, the
 * faults it survived, double activations, each Counter's longest unavailability and how asks were
 * answered. {@link #violations()} is empty when every promise held.
 */
record ChaosVerdict(Duration length, List<Fault> faults, Map<String, Kind> kinds, long unknown, long samples, List<String> doubles,
        Map<String, Duration> longestWaits, Map<Integer, Long> asks, List<String> failures, List<String> notes) {

    /** A fault: what, and the seconds since the load began at which it began, ended and the cluster had recovered. */
    record Fault(String what, double began, double ended, double recovered) {
    }

    /**
     * One kind of message, summed over its receivers: admitted (202), handled by the agents, lost,
     * duplicated and out of order as far as the kind's promise goes (a stateless agent's repeats and
     * reordering around a crash are allowed: at least once, so not counted here).
     */
    record Kind(long admitted, long handled, long lost, long duplicated, long outOfOrder) {
        Kind plus(Kind other) {
            return new Kind(admitted + other.admitted, handled + other.handled, lost + other.lost, duplicated + other.duplicated,
                    outOfOrder + other.outOfOrder);
        }
    }

    /** Every promise broken, in words; empty when all held. */
    List<String> violations() {
        List<String> broken = new ArrayList<>();
        kinds.forEach((kind, k) -> {
            if (k.lost() > 0 || k.duplicated() > 0 || k.outOfOrder() > 0) {
                broken.add(kind + ": " + k.lost() + " lost, " + k.duplicated() + " duplicated, " + k.outOfOrder() + " out of order");
            }
        });
        if (!doubles.isEmpty()) {
            broken.add(doubles.size() + " double activations: " + doubles.subList(0, Math.min(5, doubles.size())));
        }
        if (samples < 10) {
            broken.add("only " + samples + " rounds of questions to every node");
        }
        broken.addAll(failures);
        return broken;
    }

    /** The longest a Counter took to admit a number, from its first post (refused, unanswered or waited on) to its 202, and which. */
    Map.Entry<String, Duration> longestWait() {
        return longestWaits.entrySet().stream().max(Comparator.comparing(Map.Entry::getValue)).orElse(Map.entry("none", Duration.ZERO));
    }

    /** What perf/chaos and the test print. */
    String summary() {
        StringBuilder out = new StringBuilder(String.format("chaos: %d s, %d faults%n", length.toSeconds(), faults.size()));
        for (Fault f : faults) {
            out.append(String.format("  %6.1f s  %-18s ended %6.1f s, recovered %6.1f s%n", f.began(), f.what(), f.ended(), f.recovered()));
        }
        out.append(String.format("  %-10s %9s %9s %6s %10s %12s%n", "kind", "admitted", "handled", "lost", "duplicated", "out of order"));
        kinds.forEach((kind, k) -> out.append(String.format("  %-10s %9d %9d %6d %10d %12d%n", kind, k.admitted(), k.handled(), k.lost(),
                k.duplicated(), k.outOfOrder())));
        Map.Entry<String, Duration> longest = longestWait();
        out.append(String.format("  double activations %d (%d rounds of questions to every node); longest wait for an admission %.1f s (%s)%n",
                doubles.size(), samples, longest.getValue().toMillis() / 1000.0, longest.getKey()));
        out.append(String.format("  asks by status (0: no answer within 10 s) %s; posts whose admission is unknown (no answer, no key) %d%n",
                asks, unknown));
        notes.forEach(note -> out.append("  ").append(note).append(System.lineSeparator()));
        List<String> broken = violations();
        out.append(broken.isEmpty() ? "  every promise held" : "  BROKEN: " + String.join("; ", broken));
        return out.toString();
    }

    static final class Builder {
        private final Duration length;
        private final List<Fault> faults;
        private final long samples;
        private final List<String> doubles;
        private final Map<String, Duration> longestWaits;
        private final Map<Integer, Long> asks = new TreeMap<>();
        private final List<String> failures = new ArrayList<>();
        private final Map<String, Kind> kinds = new LinkedHashMap<>();
        private final List<String> notes = new ArrayList<>();
        private long unknown;

        Builder(Duration length, List<Fault> faults, long samples, List<String> doubles, Map<String, Duration> longestWaits,
                Map<Integer, AtomicLong> asks, List<Throwable> failures) {
            this.length = length;
            this.faults = List.copyOf(faults);
            this.samples = samples;
            this.doubles = List.copyOf(doubles);
            this.longestWaits = Map.copyOf(longestWaits);
            asks.forEach((status, n) -> this.asks.put(status, n.get()));
            failures.forEach(f -> this.failures.add(f.toString()));
        }

        /** Adds one receiver's counts to its kind's. */
        Builder kind(String kind, long admitted, long handled, long lost, long duplicated, long outOfOrder) {
            kinds.merge(kind, new Kind(admitted, handled, lost, duplicated, outOfOrder), Kind::plus);
            return this;
        }

        /** A line for the summary (a receiver's own report, for whoever reads a failure). */
        Builder note(String line) {
            notes.add(line);
            return this;
        }

        Builder unknown(long posts) {
            unknown += posts;
            return this;
        }

        ChaosVerdict build() {
            return new ChaosVerdict(length, faults, Collections.unmodifiableMap(new LinkedHashMap<>(kinds)), unknown, samples, doubles, longestWaits,
                    Collections.unmodifiableMap(new TreeMap<>(asks)), List.copyOf(failures), List.copyOf(notes));
        }
    }
}
