package org.siebog.perf.senderreceiver;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.siebog.examples.senderreceiver.Primes;
import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.child.ChildRuns;
import org.siebog.perf.senderreceiver.jade.JadeJvms;
import org.siebog.perf.senderreceiver.pekko.PekkoJvms;
import org.siebog.perf.senderreceiver.tcp.TcpJvms;

/**
 * The Sender/Receiver benchmark ({@code perf/sender-receiver}): measures Siebog, and each reference
 * asked for ({@code --jade}, {@code --pekko}, {@code --tcp}) right after it for each configuration, so
 * all see the same machine state. CSV on stdout and in a file; progress, spread, failures and Siebog's
 * ratio to each reference on stderr; a PNG beside the CSV.
 */
public final class SenderReceiverBenchmark {

    /** Generous on purpose: a timeout is for runs that hang, not slow ones (≥ 4,000 round trips/s). */
    private static final Duration PER_ROUND_TRIP = Duration.ofNanos(250_000);
    /**
     * And per character of payload: between nodes a 64 KB message is copied, sent and logged on two
     * nodes both ways (about 3 ms a round trip on two loaded cores, where 7 characters take 0.2).
     */
    private static final long PER_PAYLOAD_CHAR_NANOS = 50;

    private final BenchmarkOptions options;
    private final SiebogRuns siebog;
    private final List<Measurement> measurements = new ArrayList<>();
    private boolean anyFailed;

    private SenderReceiverBenchmark(BenchmarkOptions options) {
        this.options = options;
        this.siebog = new SiebogRuns(options.url());
    }

    public static void main(String[] args) {
        BenchmarkOptions.fromCommandLine("sender-receiver", args)
                .ifPresent(options -> System.exit(new SenderReceiverBenchmark(options).run()));
    }

    private int run() {
        if (options.siebog()) {
            try {
                siebog.checkReachable();
            } catch (RunFailedException e) {
                log(e.getMessage());
                return 1;
            }
        }
        Duration perRoundTrip = PER_ROUND_TRIP.plus(primeTaskCost().multipliedBy(2));
        try (PrintWriter csv = csvFile()) {
            emit(csv, ResultsCsv.HEADER);
            for (int payload : options.payloads()) {
                for (int pairs : options.pairs()) {
                    RunParameters parameters = new RunParameters(pairs, payload, options.primeLimit(),
                            options.warmup(), options.measured());
                    Duration timeout = parameters.timeout(perRoundTrip.plusNanos(PER_PAYLOAD_CHAR_NANOS * payload));
                    if (options.siebog()) {
                        measure(Measurement.SIEBOG, parameters, csv, () -> siebog.run(parameters, timeout, options.nodes()));
                    }
                    for (Reference reference : options.references()) {
                        measure(reference.system(), parameters, csv, () -> ChildRuns.run(mains(reference), parameters, options.warmRuns() + 1, options.nodes(), timeout));
                    }
                }
            }
        } catch (IOException e) {
            log("cannot write " + options.csv() + ": " + e.getMessage());
            return 1;
        }
        log("CSV written to " + options.csv());
        Path png = ResultsChart.pngBeside(options.csv());
        try {
            ResultsChart.write(measurements, systems(), options.pairs(), options.payloads(), options.nodes(), png);
            log("chart: " + png);
        } catch (IOException e) {
            log("cannot write " + png + ": " + e.getMessage());
            return 1;
        }
        if (options.siebog()) {
            RatioSummary.lines(measurements, options.references(), options.pairs(), options.payloads()).forEach(SenderReceiverBenchmark::log);
        }
        return anyFailed ? 1 : 0;
    }

    private static ChildRuns.Mains mains(Reference reference) {
        return switch (reference) {
            case JADE -> JadeJvms.MAINS;
            case PEKKO -> PekkoJvms.MAINS;
            case TCP -> TcpJvms.MAINS;
        };
    }

    /** The systems measured, in the order they run. */
    private List<String> systems() {
        List<String> systems = new ArrayList<>();
        if (options.siebog()) {
            systems.add(Measurement.SIEBOG);
        }
        options.references().forEach(reference -> systems.add(reference.system()));
        return systems;
    }

    private interface Run {
        RunResult measure() throws RunFailedException;
    }

    private void measure(String system, RunParameters parameters, PrintWriter csv, Run run) {
        String label = String.format(Locale.ROOT, "[%s] N=%d payload=%d", system, parameters.pairs(), parameters.payloadChars());
        log(label + ": running");
        long start = System.nanoTime();
        try {
            RunResult result = run.measure();
            Measurement measurement = new Measurement(system, options.nodes(), parameters.payloadChars(), result);
            measurements.add(measurement);
            emit(csv, ResultsCsv.row(measurement));
            log(String.format(Locale.ROOT, "%s: %.0f round trips/s, avgRTT %.3f ms, pair RTT spread %.3f–%.3f ms (%.1fx), run took %.1f s",
                    label, result.roundTripsPerSec(), result.avgRttMs(), result.minPairRttMs(), result.maxPairRttMs(),
                    result.maxPairRttMs() / result.minPairRttMs(), (System.nanoTime() - start) / 1e9));
        } catch (RunFailedException e) {
            anyFailed = true;
            log(label + ": FAILED, no CSV row: " + e.getMessage());
        }
    }

    private PrintWriter csvFile() throws IOException {
        Path parent = options.csv().toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return new PrintWriter(Files.newBufferedWriter(options.csv()));
    }

    /** Each row goes out as soon as it is measured, so an interrupted run keeps what it had. */
    private static void emit(PrintWriter csv, String line) {
        System.out.println(line);
        csv.println(line);
        csv.flush();
    }

    /** What one Receiver task costs on this machine, so the timeout allows for --prime-limit. */
    private Duration primeTaskCost() {
        long start = System.nanoTime();
        Primes.countUpTo(options.primeLimit());
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static void log(String line) {
        System.err.println(line);
    }
}
