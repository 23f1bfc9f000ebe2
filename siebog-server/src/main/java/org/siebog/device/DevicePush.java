package org.siebog.device;

/** Sends a frame to a device, wherever in the cluster its socket is. */
interface DevicePush {

    void toDevice(String device, String frame);

    /**
     * {@code device} did not answer a {@code start} within its deadline: placement leaves it out for
     * the backoff period ({@link StartDeadline}). Nothing by default (a proxy tested on its own).
     */
    default void missedStart(String device) {
    }
}
