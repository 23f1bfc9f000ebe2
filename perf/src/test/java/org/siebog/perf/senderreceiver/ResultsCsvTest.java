package org.siebog.perf.senderreceiver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.siebog.examples.senderreceiver.RunResult;

class ResultsCsvTest {

    private static Measurement measurement(String system, int pairs, int payload, double roundTripsPerSec) {
        return new Measurement(system, 1, payload, new RunResult(pairs, pairs * 300L, pairs / roundTripsPerSec * 1000,
                roundTripsPerSec, 0.5, 1.5));
    }

    @Test
    void headerIsTheAgreedOne() {
        assertEquals("system,nodes,pairs,payloadChars,measuredRoundTrips,avgRttMs,roundTripsPerSec", ResultsCsv.HEADER);
    }

    @Test
    void rowHasOneFieldPerHeaderColumnWithDecimalPoints() {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            assertEquals("siebog,1,1000,65536,300000,11.2857,88899.5",
                    ResultsCsv.row(new Measurement("siebog", 1, 65536,
                            new RunResult(1000, 300_000, 11.28567151654, 88899.48466761, 8.55, 12.0))));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void ratioPerPairsSaysWhichSystemFailed() {
        List<Measurement> measurements = List.of(
                measurement("siebog", 1, 7, 8000), measurement("jade", 1, 7, 10000),
                measurement("siebog", 10, 7, 62000), measurement("jade", 10, 7, 20000),
                measurement("siebog", 4096, 7, 78000));
        assertEquals(List.of("ratio siebog/jade: N=1 0.80x, N=10 3.10x, N=4096 n/a (jade failed), N=8192 n/a (both failed)"),
                RatioSummary.lines(measurements, List.of(Reference.JADE), List.of(1, 10, 4096, 8192), List.of(7)));
    }

    @Test
    void ratioLinesAreLabelledWhenThereAreSeveralPayloads() {
        List<Measurement> measurements = List.of(
                measurement("siebog", 1, 7, 3000), measurement("jade", 1, 7, 1000),
                measurement("jade", 1, 65536, 1000));
        assertEquals(List.of("ratio siebog/jade (payload 7 chars): N=1 3.00x",
                        "ratio siebog/jade (payload 65536 chars): N=1 n/a (siebog failed)"),
                RatioSummary.lines(measurements, List.of(Reference.JADE), List.of(1), List.of(7, 65536)));
    }

    @Test
    void oneRatioLinePerReference() {
        List<Measurement> measurements = List.of(
                measurement("siebog", 1, 7, 9000), measurement("pekko", 1, 7, 3000), measurement("tcp", 1, 7, 36000));
        assertEquals(List.of("ratio siebog/pekko: N=1 3.00x", "ratio siebog/tcp: N=1 0.25x"),
                RatioSummary.lines(measurements, List.of(Reference.PEKKO, Reference.TCP), List.of(1), List.of(7)));
    }
}
