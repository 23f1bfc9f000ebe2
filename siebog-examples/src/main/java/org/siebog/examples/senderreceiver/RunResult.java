package org.siebog.examples.senderreceiver;

/**
 * The figures of one Sender/Receiver run at full load.
 *
 * @param avgRttMs     mean over pairs of each pair's mean round-trip time
 * @param minPairRttMs the fastest pair's mean: with {@code maxPairRttMs}, how fair the platform is
 */
public record RunResult(int pairs, long measuredRoundTrips, double avgRttMs, double roundTripsPerSec,
                        double minPairRttMs, double maxPairRttMs) {
}
