package org.siebog.device;

/**
 * How fast one device may send frames: a token bucket holding {@code burst} frames that refills at
 * {@code perSecond}. A frame finding the bucket empty is refused (the device is told, 429). A device
 * that keeps sending while refused, more than {@code maxRefused} refusals without a second's pause
 * between two of them, is closed: it is not slowing down. A device that backs off for a second is
 * forgiven its earlier refusals.
 *
 * <p>Frames of one socket arrive one at a time (the WebSocket container never calls an endpoint
 * concurrently for one session), so the bucket needs no lock.
 */
final class FrameRateLimiter {

    enum Verdict { ADMIT, REFUSE, CLOSE }

    private static final long SECOND = 1_000_000_000L;

    private final long perSecond;
    /** A full bucket, in the unit of {@link #credit}, and how long an empty one takes to fill. */
    private final long capacity;
    private final long fillNanos;
    private final int maxRefused;
    /** Frames in the bucket times a second in nanoseconds: whole numbers, so refills never fall short by a rounding. */
    private long credit;
    private long refilledAt;
    private int refused;
    private long lastRefusedAt;

    FrameRateLimiter(int perSecond, int burst, int maxRefused, long nowNanos) {
        this.perSecond = perSecond;
        this.capacity = burst * SECOND;
        this.fillNanos = capacity / Math.max(1, perSecond) + 1;
        this.maxRefused = maxRefused;
        this.credit = capacity;
        this.refilledAt = nowNanos;
        this.lastRefusedAt = nowNanos - SECOND;
    }

    Verdict take(long nowNanos) {
        long elapsed = Math.min(nowNanos - refilledAt, fillNanos); // so the product below cannot overflow
        credit = Math.min(capacity, credit + elapsed * perSecond);
        refilledAt = nowNanos;
        if (credit >= SECOND) {
            credit -= SECOND;
            return Verdict.ADMIT;
        }
        if (nowNanos - lastRefusedAt >= SECOND) {
            refused = 0;
        }
        lastRefusedAt = nowNanos;
        return ++refused > maxRefused ? Verdict.CLOSE : Verdict.REFUSE;
    }
}
