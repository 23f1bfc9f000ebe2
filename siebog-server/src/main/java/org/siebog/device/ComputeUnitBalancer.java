package org.siebog.device;

import java.util.Collection;
import java.util.Optional;
import java.util.Random;

/**
 * Picks a device for a client agent at random, with probability proportional to its compute
 * units (the paper's balancer, section 4): a device twice as fast gets twice the agents, on average.
 */
public final class ComputeUnitBalancer {

    private final Random random;

    public ComputeUnitBalancer(Random random) {
        this.random = random;
    }

    /** Seeded by {@code -Dsiebog.device.placement-seed} when set, so a run can be repeated. */
    public static ComputeUnitBalancer fromSystemProperty() {
        String seed = System.getProperty("siebog.device.placement-seed");
        return new ComputeUnitBalancer(seed == null ? new Random() : new Random(Long.parseLong(seed)));
    }

    /** A device of {@code joined}, leaving out those that missed a start deadline lately ({@link Device#skipped}). */
    public Optional<Device> select(Collection<Device> joined, long now) {
        return select(joined.stream().filter(d -> !d.skipped(now)).toList());
    }

    synchronized Optional<Device> select(Collection<Device> devices) {
        double total = 0;
        for (Device d : devices) {
            total += d.computeUnits();
        }
        if (devices.isEmpty() || total <= 0) {
            return Optional.empty();
        }
        double point = random.nextDouble() * total;
        Device last = null;
        for (Device d : devices) {
            last = d;
            point -= d.computeUnits();
            if (point < 0) {
                return Optional.of(d);
            }
        }
        return Optional.of(last); // rounding left the point at the very end
    }
}
