package org.siebog.replication;

import java.util.TreeSet;

/**
 * The counters one origin's messages to one agent have used: everything up to {@code low}, plus
 * the few above it that arrived early. Counters are handed out 1, 2, 3, ... and each is admitted
 * or refused once (a refusal counts, see {@code AgentJournal}), so the gaps close and the window
 * stays small even though resends may arrive out of order.
 */
final class DedupWindow {

    /** Counters held above a gap before the gap is given up on (resends come within seconds, not thousands of messages later). */
    static final int MAX_ABOVE = 10_000;

    private long low;
    private final TreeSet<Long> above = new TreeSet<>();

    DedupWindow() {
    }

    DedupWindow(long low, Iterable<Long> above) {
        this.low = low;
        above.forEach(this.above::add);
    }

    /** Records {@code counter}; false if it was recorded before. */
    boolean add(long counter) {
        if (counter <= low || !above.add(counter)) {
            return false;
        }
        if (above.size() > MAX_ABOVE) {
            low = above.first() - 1; // the oldest gap was a message that never arrived
        }
        while (!above.isEmpty() && above.first() == low + 1) {
            low = above.pollFirst();
        }
        return true;
    }

    long low() {
        return low;
    }

    TreeSet<Long> above() {
        return above;
    }

    DedupWindow copy() {
        return new DedupWindow(low, above);
    }
}
