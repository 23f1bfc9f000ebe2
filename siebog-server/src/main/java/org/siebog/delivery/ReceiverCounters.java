package org.siebog.delivery;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.siebog.api.AID;

/**
 * How many messages one origin has numbered for each receiver (the counters of
 * {@link org.siebog.message.MessageId}), for at most {@link #MAX_RECEIVERS} receivers.
 *
 * <p>Beyond the bound the receivers sent to least recently are dropped (an eighth of the bound at
 * once, so that a sender going round more receivers than the bound sorts its counters once per
 * eighth, not at every send), and {@code floor} keeps the highest counter any dropped receiver had
 * reached. A receiver that is not held (never sent to, or dropped) is numbered on from
 * {@code floor + 1}. So one origin's counters for one receiver go up strictly, forever, whether its
 * entry was dropped in between or not: a counter is never handed out twice to a receiver, and a
 * receiver that still remembers the old ones cannot take a new message for a repeat, nor a repeat
 * for a new message. What a drop costs the receiver is a gap in the counters it sees, held by its
 * {@code DedupWindow} as one run above a hole that never fills.
 *
 * <p>Which receivers are dropped depends only on the order of the sends, never on time or saves:
 * a stateful agent replayed from its saved record (which holds these entries in the order they
 * were last sent to, and the floor) numbers its sends exactly as the lost run did, so its
 * receivers recognise the repeats.
 *
 * <p>On every message a node sends, so a send changes only two numbers in place: no boxed counter
 * and no access-ordered map, whose relinking wrote references into old objects at every send (the
 * garbage collector's card refinement took 2.5% of a loaded node's CPU). Not thread-safe: an agent
 * numbers on its lane; {@link NodeOrigin} locks around it.
 */
public final class ReceiverCounters {

    /**
     * Receivers held per origin. Reply inboxes, the receivers a REST client makes without bound,
     * are never numbered ({@link org.siebog.message.MessageId#unnumbered(String)}); this bounds
     * what a sender of many other receivers holds (and saves with every record).
     */
    public static final int MAX_RECEIVERS = 1_024;

    /** A receiver's last counter and when it was last sent to (this origin's send count then). */
    private static final class Counter {
        long last;
        long sentAt;

        Counter(long last) {
            this.last = last;
        }
    }

    private static final Comparator<Map.Entry<AID, Counter>> LEAST_RECENT_FIRST =
            Comparator.comparingLong(e -> e.getValue().sentAt);

    private final int max;
    private final HashMap<AID, Counter> counters = new HashMap<>();
    private long floor;
    private long sends;

    public ReceiverCounters() {
        this(MAX_RECEIVERS);
    }

    ReceiverCounters(int max) {
        this.max = max;
    }

    /**
     * What a saved record holds of the counters.
     *
     * @param entries the receivers held (as AID strings) and their last counters, least recently
     *                sent to first: the order decides which are dropped next, so it is saved too
     * @param floor   see {@link ReceiverCounters#floor()}
     */
    public record Saved(Map<String, Long> entries, long floor) {

        public static final Saved NONE = new Saved(Map.of(), 0);

        public Saved {
            entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }
    }

    /** The counters as {@link #saved()} left them. */
    public static ReceiverCounters restored(Saved saved) {
        ReceiverCounters restored = new ReceiverCounters();
        saved.entries().forEach((receiver, last) -> {
            Counter counter = new Counter(last);
            counter.sentAt = ++restored.sends;
            restored.counters.put(AID.parse(receiver), counter);
        });
        restored.floor = saved.floor();
        restored.dropBeyondBound();
        return restored;
    }

    public Saved saved() {
        Map<String, Long> entries = new LinkedHashMap<>();
        for (Map.Entry<AID, Counter> e : leastRecentFirst()) {
            entries.put(e.getKey().toString(), e.getValue().last);
        }
        return new Saved(entries, floor);
    }

    /** The next counter for {@code receiver}: 1, 2, 3, ... or on from the floor if it is not held. */
    public long next(AID receiver) {
        Counter counter = counters.get(receiver);
        if (counter == null) {
            counter = new Counter(floor);
            counter.sentAt = ++sends; // the most recent before the drop, which must not take it
            counters.put(receiver, counter);
            dropBeyondBound();
        } else {
            counter.sentAt = ++sends;
        }
        return ++counter.last;
    }

    /** Beyond the bound, drops the least recently sent to: down to seven eighths of it (for a bound under 8, one). */
    private void dropBeyondBound() {
        if (counters.size() <= max) {
            return;
        }
        List<Map.Entry<AID, Counter>> byRecency = leastRecentFirst();
        int keep = max - max / 8;
        for (Map.Entry<AID, Counter> dropped : byRecency.subList(0, byRecency.size() - keep)) {
            floor = Math.max(floor, dropped.getValue().last);
            counters.remove(dropped.getKey());
        }
    }

    private List<Map.Entry<AID, Counter>> leastRecentFirst() {
        List<Map.Entry<AID, Counter>> entries = new ArrayList<>(counters.entrySet());
        entries.sort(LEAST_RECENT_FIRST);
        return entries;
    }

    /** The highest counter of any receiver no longer held: numbering of a receiver not held goes on above it. */
    public long floor() {
        return floor;
    }

    public int size() {
        return counters.size();
    }
}
