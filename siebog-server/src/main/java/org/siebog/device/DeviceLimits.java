package org.siebog.device;

/**
 * What one device may make its node hold, read from the node's system properties when the device's
 * socket opens (so a changed property applies to sockets opened after it).
 *
 * @param maxOutboxBytes {@code siebog.device.max-outbox-bytes}: UTF-8 bytes of frames that may wait
 *                       for the device to read them (behind the one being written) before it is closed
 */
record DeviceLimits(int maxOutboxBytes) {

    static final int DEFAULT_MAX_OUTBOX_BYTES = 1 << 20;

    /** One instance while the properties stay the same, so a node's thousands of sockets share it. */
    private static volatile DeviceLimits last = new DeviceLimits(DEFAULT_MAX_OUTBOX_BYTES);

    static DeviceLimits current() {
        DeviceLimits now = new DeviceLimits(Integer.getInteger("siebog.device.max-outbox-bytes", DEFAULT_MAX_OUTBOX_BYTES));
        DeviceLimits shared = last;
        if (shared.equals(now)) {
            return shared;
        }
        last = now;
        return now;
    }
}
