package org.siebog.device;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.cluster.ClusterNode;
import org.siebog.delivery.AgentExecutor;
import org.siebog.platform.NodeEvent;
import org.siebog.platform.PlatformConfig;
import org.siebog.platform.Setting;

/**
 * The device sockets of this node, from open through join to close: the one place that knows
 * which socket is which device. A join registers the device cluster-wide ({@link DeviceRegistry})
 * and a close removes it; either is announced as {@link DevicesChanged}, so that agents waiting
 * for a device, or left without one, are seen to at once ({@link ClientAgentRestarts}).
 *
 * <p>Devices whose node left the cluster are forgotten with it. Once a second it closes the sockets that went silent: those that did not join within
 * {@link #JOIN_WITHIN_MS} and joined ones without a heartbeat for three periods.
 */
@ApplicationScoped
class DeviceSockets implements DeviceConnection.Overflow {

    private static final Logger LOG = Logger.getLogger(DeviceSockets.class.getName());
    /** What a device is told in its welcome: how often to send heartbeats, and the protocol's bounds. */
    static final long HEARTBEAT_MS = Setting.DEVICE_HEARTBEAT_MS.longValue();
    static final int MAX_FRAME_BYTES = Setting.DEVICE_MAX_FRAME_BYTES.intValue();
    static final int MAX_STATE_BYTES = Setting.STATE_MAX_BYTES.intValue();
    static final int MAX_PENDING_STATE = Setting.STATE_MAX_PENDING.intValue();
    static final long JOIN_WITHIN_MS = 10_000;
    /** Close code 1013: the device may come back, but it must read what it is sent (docs/device-protocol.md). */
    static final int TRY_AGAIN_LATER = 1013;

    @Inject
    DeviceRegistry registry;

    @Inject
    ClusterNode cluster;

    @Inject
    AgentExecutor executor;

    @Inject
    Event<DevicesChanged> changes;

    @Inject
    Event<NodeEvent> events;

    @Resource
    ManagedExecutorService workers;

    @Inject
    MeterRegistry meters;

    private Counter joins;

    /** The joined devices' sockets, by device id. */
    private final Map<String, DeviceConnection> joined = new ConcurrentHashMap<>();
    /** Sockets that have not joined yet; a join moves one to {@link #joined}. */
    private final Map<DeviceConnection, Boolean> opened = new ConcurrentHashMap<>();
    private final SecureRandom ids = new SecureRandom();
    private final AtomicBoolean begun = new AtomicBoolean();

    void begin(@Observes @Initialized(ApplicationScoped.class) Object deployed) {
        if (begun.getAndSet(true)) {
            return; // fired once per module of the EAR
        }
        joins = Counter.builder("siebog.devices.joins").description("Devices that joined this node").register(meters);
        Gauge.builder("siebog.devices", joined, Map::size).description("Devices joined to this node now").register(meters);
        long period = Math.min(1_000, HEARTBEAT_MS);
        executor.timer().scheduleWithFixedDelay(this::closeSilentSafely, period, period, TimeUnit.MILLISECONDS);
        cluster.onViewChange(this::forgetDevicesOfDeparted);
    }

    /** The messages per second of each device joined to this node, by id. */
    Map<String, Double> messageRates() {
        Map<String, Double> rates = new HashMap<>();
        joined.forEach((id, connection) -> rates.put(id, connection.messagesPerSecond()));
        return rates;
    }

    void opened(DeviceConnection connection) {
        opened.put(connection, Boolean.TRUE);
    }

    /** Registers the socket's device under a fresh id and welcomes it. */
    Device join(DeviceConnection connection, double computeUnits, String label) {
        Device device;
        do {
            device = new Device("d-" + HexFormat.of().toHexDigits(ids.nextInt()), cluster.name(), computeUnits, label);
        } while (!registry.register(device));
        connection.joinedAs(device.id());
        joined.put(device.id(), connection);
        opened.remove(connection);
        joins.increment();
        connection.send(new DeviceFrames.Welcome(device.id(), PlatformConfig.SYSTEM.platformName(), computeUnits, HEARTBEAT_MS,
                MAX_FRAME_BYTES, MAX_STATE_BYTES, MAX_PENDING_STATE).write());
        changes.fire(DevicesChanged.JOINED); // an agent waiting for a device need not wait for the next sweep
        events.fire(NodeEvent.now(NodeEvent.Type.DEVICE_JOINED, cluster.name(), Map.of("device", device.id(),
                "label", label == null ? "" : label, "computeUnits", Double.toString(computeUnits))));
        return device;
    }

    /** The socket closed (leave, a closed tab, a timeout): the device is gone and its agents go elsewhere. */
    void closed(DeviceConnection connection) {
        opened.remove(connection);
        String id = connection.deviceId();
        if (id != null && joined.remove(id, connection)) {
            registry.remove(id);
            LOG.fine(() -> "device " + id + " left");
            changes.fire(DevicesChanged.LEFT);
            events.fire(NodeEvent.now(NodeEvent.Type.DEVICE_LEFT, cluster.name(), Map.of("device", id)));
        }
    }

    /**
     * A device that did not read what was sent to it: closed (1013) and gone at once, its agents
     * moving, whether or not its close frame ever gets past the frames it left unread. On a worker
     * thread: the overflow is found inside a send, which may run under an agent's proxy lock.
     */
    @Override
    public void overflowed(DeviceConnection connection, long queuedBytes) {
        LOG.info(() -> "device " + connection.deviceId() + " read too slowly (" + queuedBytes + " bytes waited for it): closed");
        workers.execute(() -> {
            connection.close(TRY_AGAIN_LATER, "read too slowly: over " + connection.limits().maxOutboxBytes()
                    + " bytes waited to be sent to it");
            closed(connection);
        });
    }

    /** The socket of a device joined to this node, or null when its socket is elsewhere (or it left). */
    DeviceConnection of(String device) {
        return joined.get(device);
    }

    /** A node that left the view took its devices' sockets with it: they are no longer joined anywhere. */
    private void forgetDevicesOfDeparted(List<String> members) {
        boolean forgot = false;
        for (Device d : registry.all()) {
            if (!members.contains(d.node())) {
                registry.remove(d.id());
                forgot = true;
            }
        }
        if (forgot) {
            changes.fire(DevicesChanged.LEFT);
        }
    }

    private void closeSilentSafely() {
        try {
            closeSilent(System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "closing silent device sockets failed", e);
        }
    }

    private void closeSilent(long now) {
        for (DeviceConnection c : opened.keySet()) {
            if (!c.joined() && now - c.openedAt() > JOIN_WITHIN_MS) {
                c.close(4001, "no join within " + JOIN_WITHIN_MS + " ms");
            }
        }
        for (DeviceConnection c : joined.values()) {
            if (now - c.lastSeen() > 3 * HEARTBEAT_MS) {
                c.close(4008, "no heartbeat for " + (now - c.lastSeen()) + " ms");
            }
        }
    }
}
