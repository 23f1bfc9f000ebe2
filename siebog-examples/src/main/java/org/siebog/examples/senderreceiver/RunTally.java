package org.siebog.examples.senderreceiver;

import java.io.Serializable;

/**
 * The coordinator's side of the full-load method: it waits until every pair has warmed up before
 * anyone measures, and until every pair has measured before anyone stops. While any pair measures,
 * all pairs are active.
 *
 * <p>avgRTT is the mean of the pairs' mean round-trip times. Round trips per second is every pair's
 * measured round trips over the time from the first pair's measured window opening to the last one's
 * closing (all of them inside the all-active period). The sum of the pairs' rates, which it was until
 * 2026-11-30, is as much only while the pairs go together: where a scheduler runs a few pairs at a
 * time (Pekko's dispatcher hands an actor five messages in a row), each pair's window is short and
 * the sum counted them as if they had run at once (6.5 M round trips/s for 100 local Pekko pairs, 0.5 ms
 * each). Over the windows' span, a platform that runs the pairs one after the other counts as one pair.
 */
public final class RunTally implements Serializable {

    private final int pairs;
    private int warmedUp;
    private int reported;
    private double sumPairRttMs;
    private double minPairRttMs = Double.MAX_VALUE;
    private double maxPairRttMs;
    private long measuredRoundTrips;
    private long firstWindowStart = Long.MAX_VALUE;
    private long lastWindowEnd = Long.MIN_VALUE;

    public RunTally(int pairs) {
        this.pairs = pairs;
    }

    /** A pair finished warming up; true when it was the last one (time to say "measure"). */
    public boolean warmedUp() {
        return ++warmedUp == pairs;
    }

    /**
     * A pair reports its measured round trips; true when it was the last one (time to say "stop").
     *
     * @param windowStartNanos when its measured window opened, by {@link System#nanoTime()} in the
     *                         Senders' JVM (every Sender of a run is in one)
     */
    public boolean measured(long count, long rttNanos, long windowStartNanos, long windowNanos) {
        double pairRttMs = rttNanos / (double) count / 1e6;
        sumPairRttMs += pairRttMs;
        minPairRttMs = Math.min(minPairRttMs, pairRttMs);
        maxPairRttMs = Math.max(maxPairRttMs, pairRttMs);
        firstWindowStart = Math.min(firstWindowStart, windowStartNanos);
        lastWindowEnd = Math.max(lastWindowEnd, windowStartNanos + windowNanos);
        measuredRoundTrips += count;
        return ++reported == pairs;
    }

    public RunResult result() {
        if (reported < pairs) {
            throw new IllegalStateException(reported + " of " + pairs + " pairs have reported");
        }
        double roundTripsPerSec = measuredRoundTrips / ((lastWindowEnd - firstWindowStart) / 1e9);
        return new RunResult(pairs, measuredRoundTrips, sumPairRttMs / pairs, roundTripsPerSec, minPairRttMs, maxPairRttMs);
    }
}
