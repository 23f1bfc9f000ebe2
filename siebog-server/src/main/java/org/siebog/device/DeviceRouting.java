package org.siebog.device;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodes;

/**
 * Frames to devices, wherever in the cluster their sockets are: written to the socket when the
 * device joined this node, else sent to its node ({@code NodeOp.PushToDevice}), which writes it
 * ({@link #pushFromNode}); and the devices' message rates, wherever their sockets are.
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

    /**
     * The messages per second of every joined device, by id: this node's own, and each other node's as it
     * answers within {@link #RATES_PATIENCE_MS} (a device of a node that did not is missing).
     */
    Map<String, Double> messageRates() {
        Map<String, CompletableFuture<Map<String, Double>>> asked = new HashMap<>();
        for (String node : cluster.members()) { // all at once: the slowest node, not their sum, is what a caller waits for
            if (!node.equals(cluster.name())) {
                asked.put(node, remote.deviceRates(node));
            }
        }
        Map<String, Double> rates = new HashMap<>(sockets.messageRates());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RATES_PATIENCE_MS);
        asked.values().forEach(answer -> {
            Map<String, Double> theirs = RemoteNodes.answeredBy(answer, deadline);
            if (theirs != null) {
                rates.putAll(theirs);
            }
        });
        return rates;
    }

    static final long RATES_PATIENCE_MS = 1_000;

    @Override
    public void missedStart(String device) {
        placement.missedStart(device);
    }
}
