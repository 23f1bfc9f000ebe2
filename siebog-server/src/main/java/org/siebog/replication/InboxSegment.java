package org.siebog.replication;

import java.util.concurrent.atomic.AtomicInteger;

import org.siebog.api.SiebogException;

/**
 * One batch of the inbox writer: the messages it admitted, stored as one {@code inbox} entry so
 * that a batch costs one cache write and one removal however many messages it holds. The entry
 * stays until every message in it is covered by its agent's saved state ({@link #release()}).
 */
final class InboxSegment {

    private final String writer;
    private final long number;
    private final AtomicInteger uncovered;
    /** Its stored size: what this node's log holds for it until it is dropped. */
    private final long bytes;
    /** Set when it was stored after its node lost touch: why its messages' admissions are not acknowledged. */
    private volatile SiebogException unacknowledged;

    InboxSegment(String writer, long number, int messages, long bytes) {
        this.writer = writer;
        this.number = number;
        this.uncovered = new AtomicInteger(messages);
        this.bytes = bytes;
    }

    String key() {
        return LogKeys.segment(writer, number);
    }

    long number() {
        return number;
    }

    long bytes() {
        return bytes;
    }

    /** Its messages are kept (and released as usual), but their admissions are answered with {@code why}. */
    void unacknowledged(SiebogException why) {
        unacknowledged = why;
    }

    /** @throws SiebogException when its messages' admissions may not be acknowledged ({@link #unacknowledged}) */
    void acknowledge() {
        SiebogException why = unacknowledged;
        if (why != null) {
            throw why;
        }
    }

    /** One of its messages is covered by a saved state; true when that was the last one. */
    boolean release() {
        return uncovered.decrementAndGet() == 0;
    }
}
