package org.siebog.perf.ycsb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongToDoubleFunction;

import org.junit.jupiter.api.Test;

class YcsbReportTest {

    /** A Siebog run phase of {@code seconds} status lines, second s at {@code ops(s)}. */
    private static PhaseRun run(int seconds, LongToDoubleFunction ops) {
        List<StatusLine> lines = new ArrayList<>();
        for (long s = 1; s <= seconds; s++) {
            lines.add(new StatusLine(s, ops.applyAsDouble(s), Map.of()));
        }
        return new PhaseRun("siebog", "run", lines, new PhaseSummary(Map.of()));
    }

    @Test
    void unthrottledItMustStayAtTheIssuesFigure() {
        String steady = YcsbReport.sustained(run(100, s -> 8000), 0, 10);
        assertTrue(steady.contains("HOLDS") && steady.contains("unthrottled"), steady);
        // Above 6,000 all along, however much it varies there.
        assertTrue(YcsbReport.sustained(run(100, s -> s % 2 == 0 ? 6000 : 12000), 0, 10).contains("HOLDS"));
        String tooSlow = YcsbReport.sustained(run(100, s -> 5000), 0, 10);
        assertTrue(tooSlow.contains("MISSED"), tooSlow);
        String dipping = YcsbReport.sustained(run(100, s -> s % 5 == 0 ? 2000 : 9000), 0, 10);
        assertTrue(dipping.contains("MISSED"), dipping);
    }

    @Test
    void throttledItIsJudgedAtItsTarget() {
        assertTrue(YcsbReport.sustained(run(100, s -> 6000), 6000, 10).contains("HOLDS"));
        assertTrue(YcsbReport.sustained(run(100, s -> 5500), 6000, 10).contains("MISSED"));
        // Holding a target below the issue's 6,000 does not count.
        assertTrue(YcsbReport.sustained(run(100, s -> 4000), 4000, 10).contains("MISSED"));
    }
}
