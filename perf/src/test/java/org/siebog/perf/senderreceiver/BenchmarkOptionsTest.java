package org.siebog.perf.senderreceiver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

    private static final Path DEFAULT_CSV = Path.of("perf", "results", "sender-receiver-x.csv");

    private static BenchmarkOptions parse(String... args) throws UsageException {
        return BenchmarkOptions.parse(List.of(args), DEFAULT_CSV);
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    @Test
    void noFlagsGiveTheDefaults() throws UsageException {
        BenchmarkOptions options = parse();
        assertEquals(List.of(1, 10, 100, 1000), options.pairs());
        assertEquals(List.of(7), options.payloads());
        assertEquals(0, options.primeLimit());
        assertEquals(List.of(), options.references());
        assertTrue(options.siebog());
        assertEquals(0, options.warmRuns());
        assertEquals(URI.create("http://127.0.0.1:8080/siebog"), options.url());
        assertEquals(BenchmarkOptions.DEFAULT_WARMUP, options.warmup());
        assertEquals(BenchmarkOptions.DEFAULT_MEASURED, options.measured());
        assertEquals(DEFAULT_CSV, options.csv());
        assertFalse(options.help());
    }

    @Test
    void everyFlagIsRead() throws UsageException {
        BenchmarkOptions options = parse("--pairs", "1, 2048,4096", "--payload", "7,65536", "--prime-limit", "1000",
                "--jade", "--url", "http://node:8180/siebog/", "--warmup", "50", "--measured", "60", "--csv", "out.csv");
        assertEquals(List.of(1, 2048, 4096), options.pairs());
        assertEquals(List.of(7, 65536), options.payloads());
        assertEquals(1000, options.primeLimit());
        assertEquals(List.of(Reference.JADE), options.references());
        assertEquals(URI.create("http://node:8180/siebog"), options.url());
        assertEquals(50, options.warmup());
        assertEquals(60, options.measured());
        assertEquals(Path.of("out.csv"), options.csv());
    }

    @Test
    void referencesRunInTheOrderGivenOnceEach() throws UsageException {
        BenchmarkOptions options = parse("--nodes", "2", "--tcp", "--jade", "--pekko", "--jade");
        assertEquals(List.of(Reference.TCP, Reference.JADE, Reference.PEKKO), options.references());
        assertTrue(options.siebog());
    }

    @Test
    void theReferencesMayWarmUpFirst() throws UsageException {
        assertEquals(2, parse("--jade", "--warm-runs", "2").warmRuns());
        assertEquals("--warm-runs must be from 0 to 10, got 11", error("--warm-runs", "11"));
    }

    @Test
    void theReferencesMayRunAlone() throws UsageException {
        BenchmarkOptions options = parse("--pekko", "--references-only");
        assertFalse(options.siebog());
        assertEquals(List.of(Reference.PEKKO), options.references());
        assertEquals("--references-only needs a reference to measure: --jade, --pekko or --tcp", error("--references-only"));
    }

    @Test
    void rawTcpIsAReferenceBetweenTwoJvmsOnly() {
        assertEquals("--tcp is a reference between two JVMs: add --nodes 2", error("--tcp"));
        assertEquals("--tcp is a reference between two JVMs: add --nodes 2", error("--tcp", "--nodes", "1"));
    }

    @Test
    void theUsageNamesEveryReference() {
        for (Reference reference : Reference.values()) {
            assertTrue(BenchmarkOptions.USAGE.contains(reference.flag() + " "), reference.flag());
        }
    }

    @Test
    void valuesMayFollowAnEqualsSign() throws UsageException {
        BenchmarkOptions options = parse("--pairs=10", "--payload=65536");
        assertEquals(List.of(10), options.pairs());
        assertEquals(List.of(65536), options.payloads());
    }

    @Test
    void helpIsRecognised() throws UsageException {
        assertTrue(parse("--help").help());
        assertTrue(parse("-h").help());
        assertTrue(parse("--tcp", "--help").help(), "help whatever else the command line says");
    }

    @Test
    void badFlagsAreNamedInTheError() {
        assertEquals("unknown flag '--pair'", error("--pair", "10"));
        assertEquals("--pairs needs a value", error("--pairs"));
        assertEquals("--pairs needs whole numbers, got 'ten'", error("--pairs", "1,ten"));
        assertEquals("--pairs needs whole numbers, got ''", error("--pairs", "1,,10"));
        assertEquals("--pairs must be from 1 to 50000, got 0", error("--pairs", "0"));
        assertEquals("--warmup must be from 1 to 1000000, got 0", error("--warmup", "0"));
        assertEquals("--prime-limit must be from 0 to 10000000, got -1", error("--prime-limit", "-1"));
        assertEquals("--jade takes no value, got '--jade=yes'", error("--jade=yes"));
        assertEquals("--pekko takes no value, got '--pekko=1'", error("--pekko=1"));
        assertEquals("--csv needs a file name", error("--csv", " "));
        assertTrue(error("--url", "127.0.0.1:8080").startsWith("--url must be an http:// or https:// URL"));
    }
}
