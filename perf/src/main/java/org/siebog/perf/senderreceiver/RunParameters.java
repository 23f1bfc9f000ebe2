package org.siebog.perf.senderreceiver;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One configuration to measure, the same for Siebog and its references.
 *
 * @param warmup   round trips per pair before measuring starts
 * @param measured round trips per pair that are timed
 */
public record RunParameters(int pairs, int payloadChars, int primeLimit, int warmup, int measured) {

    /** Covers starting the agents (and, for JADE, the JVM) on a busy machine. */
    private static final Duration STARTUP_ALLOWANCE = Duration.ofSeconds(60);

    /**
     * How long a run may take before it counts as failed: proportional to the round trips, counting
     * the cool-down (pairs keep going until the slowest has measured) as another {@code measured}.
     */
    public Duration timeout(Duration perRoundTrip) {
        long roundTrips = (long) pairs * (warmup + 2L * measured);
        return STARTUP_ALLOWANCE.plus(perRoundTrip.multipliedBy(roundTrips));
    }

    /** A request's content: {@code payloadChars} random lowercase letters. */
    public String randomPayload() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder text = new StringBuilder(payloadChars);
        for (int i = 0; i < payloadChars; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    /** The command-line form, for a reference's child JVMs. */
    public List<String> toArgs() {
        return List.of(Integer.toString(pairs), Integer.toString(payloadChars), Integer.toString(primeLimit),
                Integer.toString(warmup), Integer.toString(measured));
    }

    public static RunParameters fromArgs(String... args) {
        if (args.length != 5) {
            throw new IllegalArgumentException("expected pairs payloadChars primeLimit warmup measured, got " + List.of(args));
        }
        return new RunParameters(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]),
                Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    }
}
