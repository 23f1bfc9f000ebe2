package org.siebog.device;

import org.siebog.platform.Setting;

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

    /** One instance while the properties stay the same, so a node's thousands of sockets share it. */
    private static volatile DeviceLimits last = read();

    static DeviceLimits current() {
        DeviceLimits now = read();
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

    private static DeviceLimits read() {
        return new DeviceLimits(Setting.DEVICE_MAX_OUTBOX_BYTES.intValue(), Setting.DEVICE_MAX_FRAMES_PER_SECOND.intValue(),
                Setting.DEVICE_FRAME_BURST.intValue(), Setting.DEVICE_MAX_REFUSED_FRAMES.intValue());
    }
}
