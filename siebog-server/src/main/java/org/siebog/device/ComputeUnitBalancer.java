package org.siebog.device;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;

import org.siebog.platform.Setting;

/**
 * Picks a device for a client agent at random, with probability proportional to its compute
 * units (the paper's balancer, section 4): a device twice as fast gets twice the agents, on average.
 *
 * <p>Two rules come first, because units are what a device says of itself and a device may never
 * run what it is given: a device that missed a start deadline lately is left out
 * ({@link Device#skipped}), and while enough devices are joined no device gets more than
 * {@code siebog.device.max-share} of the client agents ({@link #withinShare}), however many units it
 * has. Otherwise one device claiming a million units would get nearly every agent, and with them
 * their saved state and their messages.
 */
final class ComputeUnitBalancer {

    static final double DEFAULT_MAX_SHARE = Double.parseDouble(Setting.DEVICE_MAX_SHARE.documentedDefault());
    /** How long the agents per device are counted forward from one reading of the directory (a read parses every entry). */
    static final long READ_HOSTED_EVERY_MS = 1_000;
    /** Room for rounding in share arithmetic (0.1 × 10 is not exactly 1). */
    private static final double EPSILON = 1e-9;

    private final Random random;
    /** The client agents on each device now, as the directory says (device id → agents). */
    private final Supplier<Map<String, Long>> hostedNow;
    private Map<String, Long> hosted = new HashMap<>();
    private long hostedReadAt = Long.MIN_VALUE / 2;

    public ComputeUnitBalancer(Random random, Supplier<Map<String, Long>> hostedNow) {
        this.random = random;
        this.hostedNow = hostedNow;
    }

    /** Seeded by {@code -Dsiebog.device.placement-seed} when set, so a run can be repeated. */
    public static ComputeUnitBalancer fromSystemProperty(Supplier<Map<String, Long>> hostedNow) {
        String seed = Setting.DEVICE_PLACEMENT_SEED.text().orElse(null);
        return new ComputeUnitBalancer(seed == null ? new Random() : new Random(Long.parseLong(seed)), hostedNow);
    }

    /**
     * A device of {@code joined} for one more client agent, counted as placed there: not one left
     * out after a missed start deadline, and not one that would hold more than its share.
     */
    public synchronized Optional<Device> select(Collection<Device> joined, long now) {
        if (now - hostedReadAt >= READ_HOSTED_EVERY_MS) {
            // Counted forward between readings: placements made here meanwhile are added below.
            hosted = new HashMap<>(hostedNow.get());
            hostedReadAt = now;
        }
        List<Device> candidates = joined.stream().filter(d -> !d.skipped(now)).toList();
        Optional<Device> chosen = byUnits(withinShare(candidates, hosted, maxShare()));
        chosen.ifPresent(d -> hosted.merge(d.id(), 1L, Long::sum));
        return chosen;
    }

    /**
     * The devices that may take one more agent without holding more than {@code maxShare} of the
     * agents on {@code devices}, rounded up (the first agent may go anywhere): a device with
     * {@code n} of {@code total} agents qualifies while {@code n + 1 ≤ ⌈maxShare × (total + 1)⌉}.
     * So of any number of agents placed from now on, none gets more than its share of them, rounded
     * up. The rule holds only while the shares can add up to everything ({@code devices × maxShare ≥ 1}:
     * four devices for 0.25); with fewer devices, every one qualifies. The device with the fewest
     * agents always qualifies then (it holds at most the average, which is within the share), so
     * an agent is never refused for the rule's sake.
     */
    static List<Device> withinShare(List<Device> devices, Map<String, Long> hosted, double maxShare) {
        if (devices.size() * maxShare < 1 - EPSILON) {
            return devices;
        }
        long total = 0;
        for (Device d : devices) {
            total += hosted.getOrDefault(d.id(), 0L);
        }
        long limit = (long) Math.ceil(maxShare * (total + 1) - EPSILON);
        List<Device> within = new ArrayList<>();
        for (Device d : devices) {
            if (hosted.getOrDefault(d.id(), 0L) + 1 <= limit) {
                within.add(d);
            }
        }
        return within.isEmpty() ? devices : within;
    }

    /** Weighted by compute units. */
    synchronized Optional<Device> byUnits(Collection<Device> devices) {
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

    /** {@code siebog.device.max-share}, read at each placement; a value outside (0, 1] is reported once and the default used. */
    private double maxShare() {
        double share = Setting.DEVICE_MAX_SHARE.doubleValue();
        if (share > 0 && share <= 1) {
            return share;
        }
        Setting.DEVICE_MAX_SHARE.reportOnce(Double.toString(share), "a number above 0 and at most 1");
        return DEFAULT_MAX_SHARE;
    }
}
