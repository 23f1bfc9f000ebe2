package org.siebog.delivery;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many messages one origin has numbered for each receiver (the counters of
 * {@link org.siebog.message.MessageId}), for at most {@link #MAX_RECEIVERS} receivers.
 *
 * <p>Beyond the bound the receiver sent to least recently is dropped, and {@code floor} keeps the
 * highest counter any dropped receiver had reached. A receiver that is not held (never sent to, or
 * dropped) is numbered on from {@code floor + 1}. So one origin's counters for one receiver go up
 * strictly, forever, whether its entry was dropped in between or not: a counter is never handed out
 * twice to a receiver, and a receiver that still remembers the old ones cannot take a new message
 * for a repeat, nor a repeat for a new message. What a drop costs the receiver is a gap in the
 * counters it sees, held by its {@code DedupWindow} as one run above a hole that never fills.
 *
 * <p>Which receiver is dropped depends only on the order of the sends, never on time or saves:
 * a stateful agent replayed from its saved record (which holds these entries in their order and the
 * floor) numbers its sends exactly as the lost run did, so its receivers recognise the repeats.
 * Not thread-safe: an agent numbers on its lane; {@link NodeOrigin} locks around it.
 */
public final class ReceiverCounters {

    /**
     * Receivers held per origin. Reply inboxes, the receivers a REST client makes without bound,
     * are never numbered ({@link org.siebog.message.MessageId#unnumbered(String)}); this bounds
     * what a sender of many other receivers holds (and saves with every record).
     */
    public static final int MAX_RECEIVERS = 1_024;

    private final int max;
    /** Last counter per receiver, least recently sent to first. */
    private final LinkedHashMap<String, Long> last = new LinkedHashMap<>(16, 0.75f, true);
    private long floor;

    public ReceiverCounters() {
        this(MAX_RECEIVERS);
    }

    ReceiverCounters(int max) {
        this.max = max;
    }

    /**
     * What a saved record holds of the counters.
     *
     * @param entries the receivers held and their last counters, least recently sent to first:
     *                the order decides which is dropped next, so it is saved too
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
        ReceiverCounters counters = new ReceiverCounters();
        counters.last.putAll(saved.entries());
        counters.floor = saved.floor();
        counters.dropBeyondBound();
        return counters;
    }

    public Saved saved() {
        return new Saved(last, floor);
    }

    /** The next counter for {@code receiver}: 1, 2, 3, ... or on from the floor if it is not held. */
    public long next(String receiver) {
        // One look-up (on every message a node sends): merge also moves the receiver to the end.
        long counter = last.merge(receiver, floor + 1, (previous, none) -> previous + 1);
        if (last.size() > max) {
            dropBeyondBound();
        }
        return counter;
    }

    private void dropBeyondBound() {
        while (last.size() > max) {
            var eldest = last.entrySet().iterator();
            floor = Math.max(floor, eldest.next().getValue());
            eldest.remove();
        }
    }

    /** The highest counter of any receiver no longer held: numbering of a receiver not held goes on above it. */
    public long floor() {
        return floor;
    }

    public int size() {
        return last.size();
    }
}
