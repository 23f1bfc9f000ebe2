package org.siebog.replication;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * What a reader needs to find one writer's segments by key, without scanning the log: the
 * numbers of its segments that were still stored when the manifest was written ({@code live}, as
 * runs), the highest number written by then ({@code written}), and the highest it may write before
 * it writes its next manifest ({@code reserved}). Every segment the writer has stored is therefore
 * in a run or in {@code (written, reserved]}; a segment listed but dropped since is simply not
 * found.
 *
 * <p>The writer writes its manifest once per {@link #RESERVE} segments, not with each one, so the
 * log's hot path stays one cache write per batch; the cost is that a reader also asks for up to
 * {@code RESERVE} numbers that were never written.
 */
record WriterManifest(List<Run> live, long written, long reserved) {

    /**
     * How many segment numbers a manifest reserves beyond those written. A manifest lists every
     * live segment, so writing one costs a walk of them all: a loaded node writes thousands of
     * segments a second and holds tens of thousands live, and at 128 those walks took 3% of its
     * CPU. A reader's extra look-ups, at most this many missing keys per writer, are one batch.
     */
    static final long RESERVE = 1024;

    /** Segment numbers {@code first..last}. */
    record Run(long first, long last) {
    }

    /** The manifest a writer stores before writing segment {@code next}. */
    static WriterManifest before(long next, Collection<Long> liveAscending) {
        List<Run> runs = new ArrayList<>();
        long first = -1;
        long last = -1;
        for (long n : liveAscending) {
            if (first >= 0 && n == last + 1) {
                last = n;
                continue;
            }
            if (first >= 0) {
                runs.add(new Run(first, last));
            }
            first = n;
            last = n;
        }
        if (first >= 0) {
            runs.add(new Run(first, last));
        }
        return new WriterManifest(runs, next - 1, next - 1 + RESERVE);
    }

    /** Every segment number in {@code [from, upTo]} that may be stored, in ascending order. */
    void candidates(long from, long upTo, LongConsumer number) {
        for (Run run : live) {
            for (long n = Math.max(from, run.first()); n <= Math.min(upTo, run.last()); n++) {
                number.accept(n);
            }
        }
        for (long n = Math.max(from, written + 1); n <= Math.min(upTo, reserved); n++) {
            number.accept(n);
        }
    }

    byte[] encode() {
        StringBuilder out = new StringBuilder().append(written).append(';').append(reserved).append(';');
        for (Run run : live) {
            out.append(run.first()).append('-').append(run.last()).append(',');
        }
        return out.toString().getBytes(StandardCharsets.US_ASCII);
    }

    static WriterManifest decode(byte[] encoded) {
        String[] parts = new String(encoded, StandardCharsets.US_ASCII).split(";", -1);
        List<Run> runs = new ArrayList<>();
        for (String run : parts[2].split(",")) {
            if (!run.isEmpty()) {
                int dash = run.indexOf('-');
                runs.add(new Run(Long.parseLong(run.substring(0, dash)), Long.parseLong(run.substring(dash + 1))));
            }
        }
        return new WriterManifest(runs, Long.parseLong(parts[0]), Long.parseLong(parts[1]));
    }
}
