package org.siebog.delivery;

import java.util.concurrent.atomic.AtomicLong;

import org.siebog.api.SiebogException;

/**
 * What a node holds of messages waiting for their delay, in estimated bytes, and its bound: a caller
 * who posts with long delays could otherwise make the node keep any number of messages in its heap
 * until they are due. Taken when a delayed post is scheduled (or taken over from a departed node),
 * given back when it fires.
 */
final class DelayedPostBudget {

    private final long limit;
    private final AtomicLong held = new AtomicLong();

    DelayedPostBudget(long limit) {
        this.limit = limit;
    }

    /** Takes {@code bytes}, or refuses (503) and takes nothing when they would pass the bound. */
    void take(long bytes) {
        long before = held.getAndUpdate(h -> h + bytes <= limit ? h + bytes : h);
        if (before + bytes > limit) {
            throw new DelayedPostsFullException(before, limit);
        }
    }

    /** Takes {@code bytes} past the bound if need be: delayed posts a departed node held, which a survivor must take over. */
    void takeAnyway(long bytes) {
        held.addAndGet(bytes);
    }

    void giveBack(long bytes) {
        held.addAndGet(-bytes);
    }

    long held() {
        return held.get();
    }

    /** 503: the node holds as many delayed messages as it may; a later or shorter delay may fit. */
    static final class DelayedPostsFullException extends SiebogException {

        DelayedPostsFullException(long held, long limit) {
            super("this node already holds " + held + " bytes of delayed messages, its limit is " + limit
                    + " (siebog.message.max-delayed-bytes); post it later or without a delay");
        }

        @Override
        public int status() {
            return 503;
        }
    }
}
