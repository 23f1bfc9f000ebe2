package org.siebog.perf.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class StatusLineTest {

    private static final String RUNNING = "2026-11-22 01:33:11:326 8 sec: 7044 operations; 1792.59 current ops/sec; "
            + "est completion in 1 day 7 hours [READ: Count=203, Max=168959, Min=2890, Avg=19786.64, 90=54143, "
            + "99=164479, 99.9=168959, 99.99=168959] [UPDATE: Count=1602, Max=167807, Min=1310, Avg=17588.94, "
            + "90=53311, 99=110527, 99.9=161023, 99.99=167807] ";

    @Test
    void readsSecondRateAndEachOperationsLatencies() {
        StatusLine line = StatusLine.parse(RUNNING).orElseThrow();
        assertEquals(8, line.second());
        assertEquals(1792.59, line.opsPerSec(), 1e-9);
        assertEquals(new IntervalLatency(203, 19786.64, 164479), line.latency("READ"));
        assertEquals(new IntervalLatency(1602, 17588.94, 110527), line.latency("UPDATE"));
        assertEquals(new IntervalLatency(0, 0, 0), line.latency("INSERT"));
    }

    @Test
    void anIdleIntervalHasZeroRateAndNoLatencies() {
        StatusLine first = StatusLine.parse("2026-11-22 01:33:03:401 0 sec: 0 operations; est completion in 0 second ")
                .orElseThrow();
        assertEquals(0, first.second());
        assertEquals(0, first.opsPerSec());
        StatusLine idle = StatusLine.parse("2026-11-22 01:33:13:322 10 sec: 7121 operations; 0 current ops/sec; "
                + "est completion in 1 day 15 hours [UPDATE: Count=0, Max=0, Min=9223372036854775807, Avg=NaN, 90=0, "
                + "99=0, 99.9=0, 99.99=0] ").orElseThrow();
        assertEquals(new IntervalLatency(0, 0, 0), idle.latency("UPDATE"));
    }

    @Test
    void otherStderrLinesAreNotStatusLines() {
        assertTrue(StatusLine.parse("Loading workload...").isEmpty());
        assertTrue(StatusLine.parse("[ycsb-devices] 1000 devices joined ws://127.0.0.1:12580/siebog/ws/device").isEmpty());
    }

    @Test
    void csvRowHasOneFieldPerHeaderColumn() {
        String row = YcsbReport.csvRow("siebog", "run", StatusLine.parse(RUNNING).orElseThrow());
        assertEquals("siebog,run,8,1792.6,1602,17588.9,110527,203,19786.6,164479,0,0.0,0", row);
        assertEquals(YcsbReport.CSV_HEADER.split(",").length, row.split(",").length);
    }

    @Test
    void summaryGivesThroughputPercentilesAndFailures() {
        PhaseSummary summary = PhaseSummary.parse(List.of("[OVERALL], RunTime(ms), 60010",
                "[OVERALL], Throughput(ops/sec), 5993.4", "[UPDATE], Operations, 323000",
                "[UPDATE], AverageLatency(us), 2101.5", "[UPDATE], 99thPercentileLatency(us), 14015",
                "[UPDATE], Return=OK, 322990", "[UPDATE], Return=ERROR, 7", "[UPDATE], Return=NOT_FOUND, 3",
                "Stop requested for workload. Now Joining!"));
        assertEquals(5993.4, summary.throughput(), 1e-9);
        assertEquals(14.015, summary.p99Ms("UPDATE"), 1e-9);
        assertEquals(2.1015, summary.avgMs("UPDATE"), 1e-9);
        assertEquals(10, summary.failed("UPDATE"));
        assertTrue(Double.isNaN(summary.p99Ms("READ")));
    }

    @Test
    void steadyPartSkipsInitWarmUpAndTheShortLastInterval() {
        List<StatusLine> seconds = List.of(line(0, 0), line(1, 0), line(2, 100), line(3, 5000), line(4, 6000),
                line(5, 5500), line(6, 200));
        PhaseRun run = new PhaseRun("siebog", "run", seconds, PhaseSummary.parse(List.of()));
        assertEquals(2, run.firstActiveSecond());
        assertEquals(List.of(line(3, 5000), line(4, 6000), line(5, 5500)), run.steady(1));
        assertEquals(5500, run.steadyOpsPerSec(1), 1e-9);
        assertEquals(2 / 3.0, run.shareOfSecondsAtLeast90Percent(1, 6000), 1e-9);
    }

    private static StatusLine line(long second, double ops) {
        return new StatusLine(second, ops, java.util.Map.of());
    }
}
