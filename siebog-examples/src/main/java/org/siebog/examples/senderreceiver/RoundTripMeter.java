package org.siebog.examples.senderreceiver;

import java.io.Serializable;

/**
 * One Sender's view of the full-load method (papers 000/001): round trips before the coordinator
 * says "measure" are warm-up and not counted; after it, the next {@code measured} round trips are
 * timed; after those the Sender keeps going, unmeasured, until the coordinator says "stop", so that
 * every pair stays active until the last pair has finished measuring.
 *
 * <p>Plain Java, shared by the Siebog and the JADE agents so both sides measure the same way.
 */
public final class RoundTripMeter implements Serializable {

    /** What a reply means for the coordinator. */
    public enum Milestone { NONE, WARMED_UP, MEASURED }

    private final int warmup;
    private final int measured;

    private long sentAt;
    private long roundTrips;
    private boolean measuring;
    private boolean measureRequested;
    private long measuredCount;
    private long measuredRttNanos;
    private long windowStart;
    private long windowNanos;
    private boolean stopped;

    public RoundTripMeter(int warmup, int measured) {
        if (warmup < 1 || measured < 1) {
            throw new IllegalArgumentException("warm-up and measured round trips must be at least 1");
        }
        this.warmup = warmup;
        this.measured = measured;
    }

    /** A request leaves now. */
    public void sent(long nowNanos) {
        sentAt = nowNanos;
        if (measureRequested && !measuring && measuredCount == 0) {
            measuring = true;
            windowStart = nowNanos;
        }
    }

    /** Its reply arrived now. */
    public Milestone replied(long nowNanos) {
        roundTrips++;
        if (measuring) {
            measuredCount++;
            measuredRttNanos += nowNanos - sentAt;
            if (measuredCount == measured) {
                measuring = false;
                windowNanos = nowNanos - windowStart;
                return Milestone.MEASURED;
            }
        }
        return roundTrips == warmup ? Milestone.WARMED_UP : Milestone.NONE;
    }

    /** Every pair has warmed up: time the next {@code measured} round trips, starting with the next request. */
    public void measure() {
        measureRequested = true;
    }

    public void stop() {
        stopped = true;
    }

    public boolean stopped() {
        return stopped;
    }

    public long measuredCount() {
        return measuredCount;
    }

    public long measuredRttNanos() {
        return measuredRttNanos;
    }

    /** When the measured window opened (the first measured request left), by {@link System#nanoTime()}. */
    public long windowStartNanos() {
        return windowStart;
    }

    public long windowNanos() {
        return windowNanos;
    }
}
