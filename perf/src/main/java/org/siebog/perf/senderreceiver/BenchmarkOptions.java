package org.siebog.perf.senderreceiver;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The command line of {@code perf/sender-receiver}, parsed and checked.
 *
 * @param pairs    the numbers of Sender/Receiver pairs to measure, in order
 * @param payloads the message contents' lengths in characters, in order
 * @param references the systems measured after Siebog for each configuration, in this order
 * @param siebog   measure Siebog (false: the references alone, without a node)
 * @param warmRuns how often each reference's JVMs run the method before the measured run, in the same JVMs
 * @param nodes    1, or 2: each Sender on one node and its Receiver on the other (a reference: the
 *                 Receivers in one JVM, the Senders in another)
 * @param url      the Siebog node's base URL, without a trailing slash
 * @param help     only print {@link #USAGE}
 */
public record BenchmarkOptions(List<Integer> pairs, List<Integer> payloads, int primeLimit, List<Reference> references, boolean siebog,
                               int warmRuns, int nodes, URI url, int warmup, int measured, Path csv, boolean help) {

    public static final List<Integer> DEFAULT_PAIRS = List.of(1, 10, 100, 1000);
    public static final int DEFAULT_PAYLOAD = 7;
    public static final String DEFAULT_URL = "http://127.0.0.1:8080/siebog";
    public static final int DEFAULT_WARMUP = 200;
    public static final int DEFAULT_MEASURED = 300;
    public static final int DEFAULT_NODES = 1;

    // The node's own limits on a run (SenderReceiverResource); checked here so a typo fails at once.
    private static final int MAX_PAIRS = 50_000;
    private static final int MAX_PAYLOAD = 1 << 20;
    private static final int MAX_PRIME_LIMIT = 10_000_000;
    private static final int MAX_ROUND_TRIPS = 1_000_000;
    private static final int MAX_NODES = 2;
    private static final int MAX_WARM_RUNS = 10;

    public static final String USAGE = """
            Usage: perf/sender-receiver [flags]

            The Sender/Receiver benchmark: N pairs of agents exchange REQUEST/INFORM round trips on a
            running Siebog node; each reference asked for runs the same method in child JVMs right after
            Siebog, per N. Prints CSV to stdout (and --csv FILE), progress and Siebog's ratio to each
            reference to stderr, and draws a PNG beside the CSV.

              --pairs LIST        numbers of pairs, comma-separated (default 1,10,100,1000)
              --payload LIST      message content length in characters, comma-separated (default 7)
              --prime-limit N     the Receiver counts the primes up to N before replying (default 0: no task)
              --jade              also measure JADE 4.3 (one container; on 2 nodes, two containers in two JVMs over RMI)
              --pekko             also measure Apache Pekko classic actors (local; on 2 nodes, two actor systems
                                  over Artery TCP; nothing durable)
              --tcp               also measure raw blocking TCP between two JVMs, a socket and a thread per pair
                                  (2 nodes only: the floor of a message between nodes)
              --references-only   measure the references alone, no Siebog node needed
              --warm-runs N       each reference's JVMs run the method N times before the measured run, as a
                                  running node has warmed up (default 0: a reference's measured run is its first)
              --nodes N           1 (default) or 2: each Sender on one node, its Receiver on the other;
                                  every reference JVM gets -Xmx1g, as a node does
              --url URL           the Siebog node (default http://127.0.0.1:8080/siebog)
              --warmup N          round trips per pair before measuring (default 200)
              --measured N        round trips per pair that are timed (default 300)
              --csv FILE          where to write the CSV too (default perf/results/sender-receiver-<timestamp>.csv)
              --help              show this

            Exit status: 0 all runs measured, 1 some run failed (see stderr), 2 bad flags.
            """;


    /**
     * The options of a benchmark's {@code main}: the CSV defaults to
     * {@code perf/results/<program>-<timestamp>.csv}. A usage error is printed and exits with 2;
     * {@code --help} prints {@link #USAGE} and gives nothing to run.
     */
    public static Optional<BenchmarkOptions> fromCommandLine(String program, String[] args) {
        String timestamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        BenchmarkOptions options;
        try {
            options = parse(Arrays.asList(args), Path.of("perf", "results", program + "-" + timestamp + ".csv"));
        } catch (UsageException e) {
            System.err.println(program + ": " + e.getMessage());
            System.err.println("Run with --help for the flags.");
            System.exit(2);
            return Optional.empty();
        }
        if (options.help()) {
            System.out.print(USAGE);
            return Optional.empty();
        }
        return Optional.of(options);
    }

    /**
     * @param defaultCsv where the CSV goes without {@code --csv}
     * @throws UsageException naming the flag at fault
     */
    public static BenchmarkOptions parse(List<String> args, Path defaultCsv) throws UsageException {
        List<Integer> pairs = DEFAULT_PAIRS;
        List<Integer> payloads = List.of(DEFAULT_PAYLOAD);
        int primeLimit = 0;
        List<Reference> references = new ArrayList<>();
        boolean siebog = true;
        int warmRuns = 0;
        int nodes = DEFAULT_NODES;
        URI url = URI.create(DEFAULT_URL);
        int warmup = DEFAULT_WARMUP;
        int measured = DEFAULT_MEASURED;
        Path csv = defaultCsv;
        boolean help = false;

        Iterator<String> rest = args.iterator();
        while (rest.hasNext()) {
            String arg = rest.next();
            // Both "--flag value" and "--flag=value".
            int equals = arg.indexOf('=');
            String flag = arg.startsWith("--") && equals > 0 ? arg.substring(0, equals) : arg;
            String inlineValue = flag.equals(arg) ? null : arg.substring(equals + 1);
            switch (flag) {
                case "--help", "-h" -> help = true;
                case "--jade", "--pekko", "--tcp" -> {
                    noValue(flag, inlineValue, arg);
                    Reference reference = Reference.byFlag(flag).orElseThrow();
                    if (!references.contains(reference)) {
                        references.add(reference);
                    }
                }
                case "--references-only" -> {
                    noValue(flag, inlineValue, arg);
                    siebog = false;
                }
                case "--pairs" -> pairs = wholeNumbers(flag, value(flag, inlineValue, rest), 1, MAX_PAIRS);
                case "--payload" -> payloads = wholeNumbers(flag, value(flag, inlineValue, rest), 0, MAX_PAYLOAD);
                case "--prime-limit" -> primeLimit = wholeNumber(flag, value(flag, inlineValue, rest), 0, MAX_PRIME_LIMIT);
                case "--warm-runs" -> warmRuns = wholeNumber(flag, value(flag, inlineValue, rest), 0, MAX_WARM_RUNS);
                case "--nodes" -> nodes = wholeNumber(flag, value(flag, inlineValue, rest), 1, MAX_NODES);
                case "--url" -> url = httpUrl(value(flag, inlineValue, rest));
                case "--warmup" -> warmup = wholeNumber(flag, value(flag, inlineValue, rest), 1, MAX_ROUND_TRIPS);
                case "--measured" -> measured = wholeNumber(flag, value(flag, inlineValue, rest), 1, MAX_ROUND_TRIPS);
                case "--csv" -> csv = path(flag, value(flag, inlineValue, rest));
                default -> throw new UsageException("unknown flag '" + arg + "'");
            }
        }
        if (help) {
            return new BenchmarkOptions(pairs, payloads, primeLimit, List.copyOf(references), siebog, warmRuns, nodes, url, warmup, measured, csv, true);
        }
        if (references.contains(Reference.TCP) && nodes != 2) {
            throw new UsageException("--tcp is a reference between two JVMs: add --nodes 2");
        }
        if (!siebog && references.isEmpty()) {
            throw new UsageException("--references-only needs a reference to measure: --jade, --pekko or --tcp");
        }
        return new BenchmarkOptions(pairs, payloads, primeLimit, List.copyOf(references), siebog, warmRuns, nodes, url, warmup, measured, csv, false);
    }

    private static void noValue(String flag, String inlineValue, String arg) throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(flag + " takes no value, got '" + arg + "'");
        }
    }

    private static String value(String flag, String inlineValue, Iterator<String> rest) throws UsageException {
        if (inlineValue != null) {
            return inlineValue;
        }
        if (!rest.hasNext()) {
            throw new UsageException(flag + " needs a value");
        }
        return rest.next();
    }

    private static List<Integer> wholeNumbers(String flag, String text, int min, int max) throws UsageException {
        List<Integer> numbers = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            numbers.add(wholeNumber(flag, item.trim(), min, max));
        }
        return List.copyOf(numbers);
    }

    private static int wholeNumber(String flag, String text, int min, int max) throws UsageException {
        int number;
        try {
            number = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " needs whole numbers, got '" + text + "'");
        }
        if (number < min || number > max) {
            throw new UsageException(flag + " must be from " + min + " to " + max + ", got " + number);
        }
        return number;
    }

    private static URI httpUrl(String text) throws UsageException {
        URI url;
        try {
            url = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        } catch (URISyntaxException e) {
            url = null;
        }
        if (url == null || !("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
            throw new UsageException("--url must be an http:// or https:// URL such as " + DEFAULT_URL + ", got '" + text + "'");
        }
        return url;
    }

    private static Path path(String flag, String text) throws UsageException {
        try {
            if (!text.isBlank()) {
                return Path.of(text);
            }
        } catch (InvalidPathException e) {
            throw new UsageException(flag + ": " + e.getMessage());
        }
        throw new UsageException(flag + " needs a file name");
    }
}
