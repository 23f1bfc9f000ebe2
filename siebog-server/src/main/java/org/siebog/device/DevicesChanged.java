package org.siebog.device;

/** A CDI event: a device joined this node, or left it ({@link DeviceSockets}). */
enum DevicesChanged {
    JOINED, LEFT
}
