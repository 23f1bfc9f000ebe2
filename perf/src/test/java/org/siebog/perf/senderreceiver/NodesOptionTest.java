package org.siebog.perf.senderreceiver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** {@code --nodes} of {@link BenchmarkOptions}: 1 or 2. */
class NodesOptionTest {

    private static BenchmarkOptions parse(String... args) throws UsageException {
        return BenchmarkOptions.parse(List.of(args), Path.of("x.csv"));
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    @Test
    void oneNodeUnlessTold() throws UsageException {
        assertEquals(1, parse().nodes());
        assertEquals(1, parse("--jade", "--pairs", "10").nodes());
    }

    @Test
    void twoNodesEitherWay() throws UsageException {
        assertEquals(2, parse("--nodes", "2").nodes());
        assertEquals(2, parse("--jade", "--nodes=2", "--pairs", "1000").nodes());
        assertEquals(1, parse("--nodes", "1").nodes());
    }

    @Test
    void onlyOneOrTwo() {
        assertEquals("--nodes must be from 1 to 2, got 0", error("--nodes", "0"));
        assertEquals("--nodes must be from 1 to 2, got 3", error("--nodes", "3"));
        assertEquals("--nodes needs whole numbers, got 'two'", error("--nodes", "two"));
        assertEquals("--nodes needs a value", error("--nodes"));
    }

    @Test
    void theUsageNamesIt() {
        assertTrue(BenchmarkOptions.USAGE.contains("--nodes N"));
    }
}
