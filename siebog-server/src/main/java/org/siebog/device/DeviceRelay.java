package org.siebog.device;

import java.util.Map;

import org.siebog.api.AID;

/**
 * What other nodes ask of this node's devices ({@code NodeOp.PushToDevice}, {@code NodeOp.DeviceEvent}
 * and {@code NodeOp.DeviceRates}, served by {@code NodeRequests}).
 */
public interface DeviceRelay {

    /** Writes a frame to a device joined to this node; dropped if it has left meanwhile. */
    void pushFromNode(String device, String frame);

    /** The messages per second of each device joined to this node, by id (for another node's {@code GET /api/devices}). */
    Map<String, Double> messageRates();

    /** A device joined to another node reports on a client agent whose proxy is on this node. */
    void deviceEvent(AID aid, String device, String op, long seq, String detail);
}
