package org.siebog.device;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.siebog.agentmanager.LocalAgents;
import org.siebog.cluster.ClusterNode;
import org.siebog.delivery.AgentExecutor;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.platform.NodeEvent;
import org.siebog.platform.Setting;

/**
 * Keeps every client agent of this node on a device: one sweep a second starts each proxy whose
 * device is no longer in the cluster's registry (it left, or its node died), or that missed its
 * start deadline, on another device, from its saved state; {@link RestartPacer} paces that after
 * most devices left at once. A device joining or leaving this node asks for a sweep at once;
 * other nodes' proxies notice on their own next sweep, within a second.
 */
@ApplicationScoped
class ClientAgentRestarts {

    private static final Logger LOG = Logger.getLogger(ClientAgentRestarts.class.getName());
    /** How long devices that left together are waited for before their agents crowd onto those back. */
    static final long REJOIN_WINDOW_MS = Setting.DEVICE_REJOIN_WINDOW_MS.longValue();

    @Inject
    ClientAgentProxies proxies;

    @Inject
    DevicePlacement placement;

    @Inject
    DeviceRouting routing;

    @Inject
    DeviceRegistry registry;

    @Inject
    AgentDirectory directory;

    @Inject
    LocalAgents local;

    @Inject
    AgentExecutor executor;

    @Inject
    ClusterNode cluster;

    @Inject
    Event<NodeEvent> events;

    @Resource
    ManagedExecutorService workers;

    private final RestartPacer pacer = new RestartPacer(REJOIN_WINDOW_MS);
    private final AtomicBoolean begun = new AtomicBoolean();
    private final AtomicBoolean sweepQueued = new AtomicBoolean();

    void begin(@Observes @Initialized(ApplicationScoped.class) Object deployed) {
        if (begun.getAndSet(true)) {
            return; // fired once per module of the EAR
        }
        long period = Math.min(1_000, DeviceSockets.HEARTBEAT_MS);
        executor.timer().scheduleWithFixedDelay(this::sweepSafely, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * A sweep on a worker thread; joins and leaves arriving while one is still queued share it (a
     * thousand devices joining at once must not queue a thousand sweeps of every device).
     */
    void sweepSoon(@Observes DevicesChanged change) {
        if (sweepQueued.compareAndSet(false, true)) {
            workers.execute(() -> {
                sweepQueued.set(false);
                sweepSafely();
            });
        }
    }

    private void sweepSafely() {
        try {
            sweep();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "client agent sweep failed", e);
        }
    }

    private synchronized void sweep() {
        long now = System.currentTimeMillis();
        List<ClientAgentProxy> homeless = new ArrayList<>();
        Set<String> missedStart = new HashSet<>();
        for (ClientAgentProxy proxy : proxies.all()) {
            if (proxy.stopped() || proxy.readingState() || proxy.awaited()) {
                continue; // on its way out (forget() follows), being started elsewhere, or its first start's caller waits
            }
            String device = proxy.device();
            boolean overdue = proxy.startOverdue(now);
            if (overdue && missedStart.add(device)) {
                placement.missedStart(device); // before the devices are read below: this agent, and the next, go elsewhere
            }
            if (device == null || overdue || registry.find(device).isEmpty()) {
                homeless.add(proxy);
            }
        }
        if (!pacer.wantsUnits(now, homeless.size())) {
            return;
        }
        // One read and one sort for all the waiting agents (16,000 may wait), not one each.
        Collection<Device> joined = registry.all();
        int allowed = pacer.allowance(now, joined.stream().mapToDouble(Device::computeUnits).sum(), homeless.size());
        List<Device> candidates = allowed > 0 ? DevicePlacement.sortedById(joined) : List.of();
        for (int i = 0; i < homeless.size(); i++) {
            ClientAgentProxy proxy = homeless.get(i);
            String device = proxy.device();
            boolean startsNow = i < allowed && !candidates.isEmpty();
            if (device == null && !startsNow) {
                continue; // already waiting for a device, and still must
            }
            if (device != null && proxy.startOverdue(now)) {
                routing.toDevice(device, new DeviceFrames.Stop(proxy.aid()).write()); // so a late start there leaves no second copy running
            }
            proxy.detach();
            if (startsNow) {
                restart(proxy, candidates);
            } else {
                waitForDevice(proxy);
            }
        }
    }

    /** Marks the agent as waiting for a device, so the directory no longer names the one it lost. */
    private void waitForDevice(ClientAgentProxy proxy) {
        directory.lookup(proxy.aid()).filter(e -> e.device() != null)
                .ifPresent(entry -> proxy.unlessStopped(() -> directory.update(entry.onDevice(null))));
    }

    /**
     * Starts a proxy's agent on another device, chosen by compute units, from its saved state. With
     * no device joined, or its state unreadable (Cassandra down), it waits for a later sweep: an
     * agent never starts again from older state than it saved.
     */
    private void restart(ClientAgentProxy proxy, List<Device> joined) {
        DirectoryEntry entry = directory.lookup(proxy.aid()).orElse(null);
        if (entry == null) {
            proxies.remove(proxy.aid());
            return;
        }
        Device target = placement.choose(joined).orElse(null);
        if (target == null) {
            waitForDevice(proxy);
            return;
        }
        proxy.readSavedState().whenComplete((saved, unreadable) -> {
            if (unreadable != null) {
                LOG.warning(() -> proxy.aid() + " waits to start again: "
                        + (unreadable.getCause() != null ? unreadable.getCause() : unreadable).getMessage());
                proxy.detach();
                return;
            }
            // The directory update and the start frame only if no stop got in first (the stop's
            // unregister would otherwise be overwritten, leaving an entry without an agent).
            AtomicReference<CompletableFuture<Void>> launched = new AtomicReference<>();
            if (!proxy.unlessStopped(() -> {
                directory.update(entry.onDevice(target.id()));
                launched.set(proxy.launch(target.id(), saved));
            })) {
                return;
            }
            LOG.info(() -> "starting client agent " + proxy.aid() + " again, on device " + target.id() + " (state version "
                    + saved.version() + ")");
            events.fire(NodeEvent.now(NodeEvent.Type.AGENT_RESTARTED, cluster.name(), Map.of("agent", proxy.aid().toString(),
                    "device", target.id(), "stateVersion", Long.toString(saved.version()))));
            launched.get().whenComplete((ok, failed) -> {
                if (failed != null) {
                    LOG.warning(() -> proxy.aid() + " failed to start again and is stopped: " + failed.getMessage());
                    workers.execute(() -> local.stop(proxy.aid(), true));
                }
            });
        });
    }
}
