package org.siebog.device;

import org.siebog.platform.Setting;

/**
 * How long a device has to answer {@code start} (with {@code started} or {@code agentError}), and
 * how long placement leaves a device out once it has not: read from the node's system properties
 * each time a start is sent or missed, so a changed property applies to the next one.
 *
 * <p>Without it a device that never answers would be offered the next agent as readily as any
 * other, and one claiming many compute units nearly every agent: new agents would fail after the
 * deadline and a moving agent would wait out deadline after deadline on it.
 *
 * @param timeoutMs {@code siebog.device.start-timeout-ms}: from the {@code start} frame to the answer
 * @param backoffMs {@code siebog.device.start-backoff-ms}: how long a device that missed it gets no agent
 *                  placement chooses (an agent asked for on it by name still goes there)
 */
record StartDeadline(long timeoutMs, long backoffMs) {

    static StartDeadline current() {
        return new StartDeadline(Setting.DEVICE_START_TIMEOUT_MS.longValue(), Setting.DEVICE_START_BACKOFF_MS.longValue());
    }
}
