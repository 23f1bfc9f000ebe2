package org.siebog.perf.ycsb;

import java.util.List;

/** One YCSB phase of one binding: its per-second status lines and its final summary. */
public record PhaseRun(String binding, String phase, List<StatusLine> seconds, PhaseSummary summary) {

    /**
     * The second the first operation completed: YCSB's clock starts before the bindings' {@code init}
     * (joining thousands of devices, waiting for their agents), which is not part of the workload.
     */
    public long firstActiveSecond() {
        return seconds.stream().filter(s -> s.opsPerSec() > 0).mapToLong(StatusLine::second).findFirst().orElse(0);
    }

    /**
     * The steady part of the phase: {@code warmupSeconds} after the first operations, and without the
     * last line (YCSB prints a short final interval when the phase ends).
     */
    public List<StatusLine> steady(long warmupSeconds) {
        long from = firstActiveSecond() + warmupSeconds;
        List<StatusLine> measured = seconds.stream().filter(s -> s.second() >= from).toList();
        return measured.isEmpty() ? measured : measured.subList(0, measured.size() - 1);
    }

    /** Mean ops/s over the steady part. */
    public double steadyOpsPerSec(long warmupSeconds) {
        return steady(warmupSeconds).stream().mapToDouble(StatusLine::opsPerSec).average().orElse(0);
    }

    /** The share of steady seconds at 90% of {@code reference} ops/s or more. */
    public double shareOfSecondsAtLeast90Percent(long warmupSeconds, double reference) {
        List<StatusLine> steady = steady(warmupSeconds);
        return steady.isEmpty() ? 0
                : steady.stream().filter(s -> s.opsPerSec() >= 0.9 * reference).count() / (double) steady.size();
    }
}
