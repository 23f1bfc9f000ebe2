package org.siebog.device;

/**
 * What one device may make its node hold and do, read from the node's system properties when the
 * device's socket opens (so a changed property applies to sockets opened after it).
 *
 * @param maxOutboxBytes   {@code siebog.device.max-outbox-bytes}: UTF-8 bytes of frames that may wait
 *                         for the device to read them (behind the one being written) before it is closed
 * @param framesPerSecond  {@code siebog.device.max-frames-per-second}: the frames a device may send a
 *                         second, on average ({@link FrameRateLimiter})
 * @param frameBurst       {@code siebog.device.frame-burst}: the frames it may send at once
 * @param maxRefusedFrames {@code siebog.device.max-refused-frames}: the refusals (429) it may get
 *                         without a second's pause before it is closed
 */
record DeviceLimits(int maxOutboxBytes, int framesPerSecond, int frameBurst, int maxRefusedFrames) {

    static final int DEFAULT_MAX_OUTBOX_BYTES = 1 << 20;
    // Far above what the library, the YCSB binding and perf/devices send (docs/device-protocol.md, "Admission").
    static final int DEFAULT_FRAMES_PER_SECOND = 2_000;
    static final int DEFAULT_FRAME_BURST = 4_000;
    static final int DEFAULT_MAX_REFUSED_FRAMES = 4_000;

    /** One instance while the properties stay the same, so a node's thousands of sockets share it. */
    private static volatile DeviceLimits last = new DeviceLimits(DEFAULT_MAX_OUTBOX_BYTES, DEFAULT_FRAMES_PER_SECOND,
            DEFAULT_FRAME_BURST, DEFAULT_MAX_REFUSED_FRAMES);

    static DeviceLimits current() {
        DeviceLimits now = new DeviceLimits(
                Integer.getInteger("siebog.device.max-outbox-bytes", DEFAULT_MAX_OUTBOX_BYTES),
                Integer.getInteger("siebog.device.max-frames-per-second", DEFAULT_FRAMES_PER_SECOND),
                Integer.getInteger("siebog.device.frame-burst", DEFAULT_FRAME_BURST),
                Integer.getInteger("siebog.device.max-refused-frames", DEFAULT_MAX_REFUSED_FRAMES));
        DeviceLimits shared = last;
        if (shared.equals(now)) {
            return shared;
        }
        last = now;
        return now;
    }

    FrameRateLimiter rateLimiter() {
        return new FrameRateLimiter(framesPerSecond, frameBurst, maxRefusedFrames, System.nanoTime());
    }
}
