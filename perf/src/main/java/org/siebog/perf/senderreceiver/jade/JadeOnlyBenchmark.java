package org.siebog.perf.senderreceiver.jade;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import org.siebog.examples.senderreceiver.Primes;
import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.BenchmarkOptions;
import org.siebog.perf.senderreceiver.JadeRuns;
import org.siebog.perf.senderreceiver.Measurement;
import org.siebog.perf.senderreceiver.ResultsCsv;
import org.siebog.perf.senderreceiver.RunFailedException;
import org.siebog.perf.senderreceiver.RunParameters;

/**
 * JADE alone, without a Siebog node, for working on the JADE side:
 * {@code java -cp perf/target/siebog-perf.jar org.siebog.perf.senderreceiver.jade.JadeOnlyBenchmark --nodes 2 --pairs 1,10}.
 * Takes the flags of {@code perf/sender-receiver} ({@code --jade} and {@code --url} are ignored)
 * and writes the same CSV rows ({@code system=jade}), default {@code perf/results/jade-only-<timestamp>.csv}.
 */
public final class JadeOnlyBenchmark {

    /** As in the benchmark: a timeout is for runs that hang, not slow ones. */
    private static final Duration PER_ROUND_TRIP = Duration.ofNanos(250_000);

    private JadeOnlyBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        BenchmarkOptions options = BenchmarkOptions.fromCommandLine("jade-only", args).orElse(null);
        if (options == null) {
            return;
        }
        long primeStart = System.nanoTime();
        Primes.countUpTo(options.primeLimit());
        Duration perRoundTrip = PER_ROUND_TRIP.plus(Duration.ofNanos(System.nanoTime() - primeStart).multipliedBy(2));

        JadeRuns jade = new JadeRuns();
        boolean anyFailed = false;
        Path parent = options.csv().toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(options.csv()))) {
            emit(csv, ResultsCsv.HEADER);
            for (int payload : options.payloads()) {
                for (int pairs : options.pairs()) {
                    RunParameters parameters = new RunParameters(pairs, payload, options.primeLimit(),
                            options.warmup(), options.measured());
                    String label = String.format(Locale.ROOT, "[jade] nodes=%d N=%d payload=%d", options.nodes(), pairs, payload);
                    System.err.println(label + ": running");
                    long start = System.nanoTime();
                    try {
                        RunResult result = jade.run(parameters, options.nodes(), parameters.timeout(perRoundTrip));
                        emit(csv, ResultsCsv.row(new Measurement(Measurement.JADE, options.nodes(), payload, result)));
                        System.err.println(String.format(Locale.ROOT,
                                "%s: %.0f round trips/s, avgRTT %.3f ms, pair RTT spread %.3f–%.3f ms (%.1fx), run took %.1f s",
                                label, result.roundTripsPerSec(), result.avgRttMs(), result.minPairRttMs(), result.maxPairRttMs(),
                                result.maxPairRttMs() / result.minPairRttMs(), (System.nanoTime() - start) / 1e9));
                    } catch (RunFailedException e) {
                        anyFailed = true;
                        System.err.println(label + ": FAILED, no CSV row: " + e.getMessage());
                    }
                }
            }
        }
        System.err.println("CSV written to " + options.csv());
        System.exit(anyFailed ? 1 : 0);
    }

    private static void emit(PrintWriter csv, String line) {
        System.out.println(line);
        csv.println(line);
        csv.flush();
    }
}
