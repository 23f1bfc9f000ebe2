package org.siebog.device;

import org.siebog.api.AID;

/**
 * What other nodes ask of this node's devices ({@code NodeOp.PushToDevice} and
 * {@code NodeOp.DeviceEvent}, served by {@code NodeRequests}).
 */
public interface DeviceRelay {

    /** Writes a frame to a device joined to this node; dropped if it has left meanwhile. */
    void pushFromNode(String device, String frame);

    /** A device joined to another node reports on a client agent whose proxy is on this node. */
    void deviceEvent(AID aid, String device, String op, long seq, String detail);
}
