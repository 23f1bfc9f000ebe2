package org.siebog.perf.ycsb;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of YCSB's per-interval status lines ({@code -s} with {@code status.interval=1}), e.g.
 * <pre>2026-11-22 01:33:11:326 8 sec: 7044 operations; 1792.59 current ops/sec; est completion in 1 day
 * [READ: Count=203, Max=168959, Min=2890, Avg=19786.64, 90=54143, 99=164479, 99.9=168959, 99.99=168959]
 * [UPDATE: Count=1602, ...]</pre>
 * (one line). {@code second} counts from the start of the phase; the rate and latencies are those of the
 * interval that ended then, not cumulative.
 */
public record StatusLine(long second, double opsPerSec, Map<String, IntervalLatency> latencies) {

    private static final Pattern HEAD = Pattern.compile(
            "^\\d{4}-\\d{2}-\\d{2} [\\d:]+ (\\d+) sec: \\d+ operations;(?: ([\\d.]+) current ops/sec;)?");
    private static final Pattern OPERATION = Pattern.compile(
            "\\[([A-Z_-]+): Count=(\\d+), Max=\\d+, Min=-?\\d+, Avg=([\\d.E-]+|NaN), 90=\\d+, 99=(\\d+)");

    /** The status line in {@code line}, or empty for any other line YCSB writes to stderr. */
    public static Optional<StatusLine> parse(String line) {
        Matcher head = HEAD.matcher(line);
        if (!head.find()) {
            return Optional.empty();
        }
        Map<String, IntervalLatency> latencies = new LinkedHashMap<>();
        Matcher op = OPERATION.matcher(line);
        while (op.find()) {
            long count = Long.parseLong(op.group(2));
            double avg = "NaN".equals(op.group(3)) ? 0 : Double.parseDouble(op.group(3));
            latencies.put(op.group(1), new IntervalLatency(count, avg, count == 0 ? 0 : Long.parseLong(op.group(4))));
        }
        double rate = head.group(2) == null ? 0 : Double.parseDouble(head.group(2));
        return Optional.of(new StatusLine(Long.parseLong(head.group(1)), rate, latencies));
    }

    /** The interval's latencies of {@code operation} (READ, UPDATE, INSERT, ...), zeros when there were none. */
    public IntervalLatency latency(String operation) {
        return latencies.getOrDefault(operation, new IntervalLatency(0, 0, 0));
    }
}
