package org.siebog.device;

/**
 * How many of the client agents waiting for a device may start again in one sweep.
 *
 * <p>When most devices go at once (a proxy in front of the node restarts, a node holding many
 * browsers dies) they usually come back within seconds, one after another. Starting every orphan
 * at once would put them all on the first device back, one Web Worker each. So while less than
 * half of the compute units joined a moment ago are back, agents start again only in proportion to
 * the units that are: with a tenth back, a tenth of the agents. With half back, or once the
 * departure is older than the rejoin window (they may never come back), all of them start.
 *
 * <p>"A moment ago" is the most compute units seen joined within the window. Counting what was
 * started since the departure, not per sweep, makes the pace the same however often sweeps run;
 * the count starts again when more devices go, as what started on them waits again.
 */
final class RestartPacer {

    /** How often the joined units are read while no agent waits (a read of 19,000 devices takes ~13 ms). */
    static final long READ_EVERY_MS = 1_000;

    private final long windowMs;
    private double peakUnits;
    private long peakSeenAt;
    private long readAt = Long.MIN_VALUE / 2;
    private double lastUnits;
    /** Agents allowed to start since fewer than half of the peak units were joined. */
    private int pacedStarts;

    RestartPacer(long windowMs) {
        this.windowMs = windowMs;
    }

    /**
     * Whether a sweep should read the units joined and call {@link #allowance}: always when agents
     * wait, otherwise once a second to keep the peak current (joins come in bursts, each asking for
     * a sweep).
     */
    synchronized boolean wantsUnits(long now, int waiting) {
        return waiting > 0 || now - readAt >= READ_EVERY_MS;
    }

    /**
     * How many waiting agents may start now; also records {@code joinedUnits} for the peak.
     *
     * @param joinedUnits the compute units of all devices joined now
     * @param waiting     how many agents wait for a device
     * @return how many of them may start now, 0 to {@code waiting}
     */
    synchronized int allowance(long now, double joinedUnits, int waiting) {
        readAt = now;
        if (joinedUnits >= peakUnits || now - peakSeenAt > windowMs) {
            peakUnits = joinedUnits;
            peakSeenAt = now;
        }
        boolean unitsFell = joinedUnits < lastUnits;
        lastUnits = joinedUnits;
        if (waiting == 0 || joinedUnits * 2 >= peakUnits) {
            pacedStarts = 0;
            return waiting;
        }
        if (unitsFell) {
            pacedStarts = 0; // what started on the devices that just went is waiting again
        }
        long due = (long) Math.ceil((pacedStarts + waiting) * joinedUnits / peakUnits);
        int allowed = (int) Math.max(0, Math.min(waiting, due - pacedStarts));
        pacedStarts += allowed;
        return allowed;
    }
}
