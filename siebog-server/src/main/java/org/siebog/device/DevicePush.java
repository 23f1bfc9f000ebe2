package org.siebog.device;

/** Sends a frame to a device, wherever in the cluster its socket is. */
interface DevicePush {

    void toDevice(String device, String frame);
}
