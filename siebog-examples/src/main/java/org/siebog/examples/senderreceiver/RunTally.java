package org.siebog.examples.senderreceiver;

import java.io.Serializable;

/**
 * The coordinator's side of the full-load method: it waits until every pair has warmed up before
 * anyone measures, and until every pair has measured before anyone stops. While any pair measures,
 * all pairs are active.
 *
 * <p>avgRTT is the mean of the pairs' mean round-trip times; round trips per second is the sum of
 * the pairs' rates over their measured windows (all windows fall inside the all-active period, so
 * at full load avgRTT ≈ pairs ÷ round trips per second).
 */
public final class RunTally implements Serializable {

    private final int pairs;
    private int warmedUp;
    private int reported;
    private double sumPairRttMs;
    private double minPairRttMs = Double.MAX_VALUE;
    private double maxPairRttMs;
    private double roundTripsPerSec;
    private long measuredRoundTrips;

    public RunTally(int pairs) {
        this.pairs = pairs;
    }

    /** A pair finished warming up; true when it was the last one (time to say "measure"). */
    public boolean warmedUp() {
        return ++warmedUp == pairs;
    }

    /** A pair reports its measured round trips; true when it was the last one (time to say "stop"). */
    public boolean measured(long count, long rttNanos, long windowNanos) {
        double pairRttMs = rttNanos / (double) count / 1e6;
        sumPairRttMs += pairRttMs;
        minPairRttMs = Math.min(minPairRttMs, pairRttMs);
        maxPairRttMs = Math.max(maxPairRttMs, pairRttMs);
        roundTripsPerSec += count / (windowNanos / 1e9);
        measuredRoundTrips += count;
        return ++reported == pairs;
    }

    public RunResult result() {
        if (reported < pairs) {
            throw new IllegalStateException(reported + " of " + pairs + " pairs have reported");
        }
        return new RunResult(pairs, measuredRoundTrips, sumPairRttMs / pairs, roundTripsPerSec, minPairRttMs, maxPairRttMs);
    }
}
