package org.siebog.device;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodes;

/**
 * Frames to devices, wherever in the cluster their sockets are: written to the socket when the
 * device joined this node, else sent to its node ({@code NodeOp.PushToDevice}), which writes it
 * ({@link #pushFromNode}).
 */
@ApplicationScoped
class DeviceRouting implements DevicePush {

    @Inject
    DeviceSockets sockets;

    @Inject
    DeviceRegistry registry;

    @Inject
    DevicePlacement placement;

    @Inject
    ClusterNode cluster;

    @Inject
    RemoteNodes remote;

    @Override
    public void toDevice(String device, String frame) {
        DeviceConnection here = sockets.of(device);
        if (here != null) {
            here.send(frame);
            return;
        }
        registry.find(device).ifPresent(d -> {
            if (!d.node().equals(cluster.name())) {
                remote.pushToDevice(d.node(), device, frame);
            }
        });
    }

    /** A frame another node sends to a device joined here; dropped if it has left meanwhile. */
    void pushFromNode(String device, String frame) {
        DeviceConnection here = sockets.of(device);
        if (here != null) {
            here.send(frame);
        }
    }

    @Override
    public void missedStart(String device) {
        placement.missedStart(device);
    }
}
