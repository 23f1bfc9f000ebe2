package org.siebog.replication;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One batch of the inbox writer: the messages it admitted, stored as one {@code inbox} entry so
 * that a batch costs one cache write and one removal however many messages it holds. The entry
 * stays until every message in it is covered by its agent's saved state ({@link #release()}).
 */
final class InboxSegment {

    private final String writer;
    private final long number;
    private final AtomicInteger uncovered;

    InboxSegment(String writer, long number, int messages) {
        this.writer = writer;
        this.number = number;
        this.uncovered = new AtomicInteger(messages);
    }

    String key() {
        return LogKeys.segment(writer, number);
    }

    long number() {
        return number;
    }

    /** One of its messages is covered by a saved state; true when that was the last one. */
    boolean release() {
        return uncovered.decrementAndGet() == 0;
    }
}
