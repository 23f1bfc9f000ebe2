package org.siebog.replication;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counters of one origin's messages to one agent that count as seen: everything up to
 * {@code low}, plus runs of consecutive counters above it that arrived early or around a hole.
 * Counters are handed out 1, 2, 3, ... but not every one is recorded (a message refused because
 * the mailbox was full is not: it may come again), so holes stay open; holding runs rather than
 * single counters keeps a window with holes as small as its number of holes.
 *
 * <p>{@code heardAt} is when a counter was last recorded (wall-clock milliseconds, so that it means
 * the same on the node that takes the agent over): {@link OriginWindows} gives up windows that have
 * heard nothing for longer than any repeat can come late.
 */
final class DedupWindow {

    /** Holes kept before the oldest is given up on (resends come within seconds, not a thousand holes later). */
    static final int MAX_RUNS = 1_000;

    /** Consecutive counters {@code first..last}, all seen. */
    record Run(long first, long last) {
    }

    private long low;
    private long heardAt;
    /** Runs above {@code low + 1}, by first counter; never adjacent to each other or to {@code low}. */
    private final TreeMap<Long, Long> runs = new TreeMap<>();

    DedupWindow() {
    }

    DedupWindow(long low, List<Run> runs, long heardAt) {
        this.low = low;
        this.heardAt = heardAt;
        runs.forEach(r -> this.runs.put(r.first(), r.last()));
    }

    boolean contains(long counter) {
        if (counter <= low) {
            return true;
        }
        Map.Entry<Long, Long> below = runs.floorEntry(counter);
        return below != null && below.getValue() >= counter;
    }

    /** Records {@code counter}; false if it was recorded before. */
    boolean add(long counter) {
        if (contains(counter)) {
            return false;
        }
        long first = counter;
        long last = counter;
        Map.Entry<Long, Long> below = runs.floorEntry(counter);
        if (below != null && below.getValue() == counter - 1) {
            first = below.getKey();
            runs.remove(first);
        }
        Long after = runs.get(counter + 1);
        if (after != null) {
            runs.remove(counter + 1);
            last = after;
        }
        if (first == low + 1) {
            low = last;
        } else {
            runs.put(first, last);
        }
        if (runs.size() > MAX_RUNS) {
            low = runs.pollFirstEntry().getValue(); // the oldest hole was a message that never came again
        }
        return true;
    }

    long low() {
        return low;
    }

    long heardAt() {
        return heardAt;
    }

    void heardAt(long millis) {
        heardAt = Math.max(heardAt, millis);
    }

    List<Run> runs() {
        List<Run> list = new ArrayList<>(runs.size());
        runs.forEach((first, last) -> list.add(new Run(first, last)));
        return list;
    }

    DedupWindow copy() {
        DedupWindow copy = new DedupWindow();
        copy.low = low;
        copy.heardAt = heardAt;
        copy.runs.putAll(runs);
        return copy;
    }
}
