package org.siebog.perf.senderreceiver;

import java.util.Locale;

/** The benchmark's CSV: one row per system × pairs × payload; failed runs have no row. */
public final class ResultsCsv {

    public static final String HEADER = "system,nodes,pairs,payloadChars,measuredRoundTrips,avgRttMs,roundTripsPerSec";

    private ResultsCsv() {
    }

    public static String row(Measurement measurement) {
        // Locale.ROOT: a decimal comma would split the figures into extra columns.
        return String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%.4f,%.1f", measurement.system(), measurement.nodes(),
                measurement.pairs(), measurement.payloadChars(), measurement.result().measuredRoundTrips(),
                measurement.result().avgRttMs(), measurement.result().roundTripsPerSec());
    }
}
