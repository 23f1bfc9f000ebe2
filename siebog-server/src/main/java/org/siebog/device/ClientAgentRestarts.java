package org.siebog.device;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.NoDeviceException;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.UnknownAgentException;
import org.siebog.cluster.ClusterNode;
import org.siebog.delivery.AgentExecutor;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.platform.Failures;
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

    /** How long a move waits for the device it leaves to confirm the agent's end (its acknowledgements come first). */
    static final long LEAVE_PATIENCE_MS = 5_000;

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
        if (!cluster.lease().holds()) {
            return; // cut off, or rejoining: its proxies are the others' to carry on now, and it may have no copy of the devices
        }
        long now = System.currentTimeMillis();
        List<ClientAgentProxy> homeless = new ArrayList<>();
        Set<String> missedStart = new HashSet<>();
        for (ClientAgentProxy proxy : proxies.all()) {
            if (proxy.stopped() || proxy.readingState() || proxy.awaited() || proxy.leaving()) {
                continue; // on its way out (forget() follows), being started or moved elsewhere, or its first start's caller waits
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
        Device target = placement.choose(joined).orElse(null);
        if (target == null) {
            waitForDevice(proxy);
            return;
        }
        startFromSavedState(proxy, target);
    }

    /**
     * Starts a detached proxy's agent on {@code target} from its saved state; completes once it has
     * started there. Its state unreadable: it waits for a later sweep. Its start failing there: it
     * is stopped. Stopped meanwhile: nothing starts.
     */
    private CompletableFuture<Void> startFromSavedState(ClientAgentProxy proxy, Device target) {
        DirectoryEntry entry = directory.lookup(proxy.aid()).orElse(null);
        if (entry == null) {
            proxies.remove(proxy.aid());
            return CompletableFuture.failedFuture(new UnknownAgentException(proxy.aid()));
        }
        CompletableFuture<Void> started = new CompletableFuture<>();
        proxy.readSavedState().whenComplete((saved, unreadable) -> {
            if (unreadable != null) {
                Throwable why = unreadable.getCause() != null ? unreadable.getCause() : unreadable;
                LOG.warning(() -> proxy.aid() + " waits to start again: " + why.getMessage());
                proxy.detach();
                started.completeExceptionally(new RemoteNodeException("the saved state of " + proxy.aid() + " could not be read ("
                        + why.getMessage() + "); it starts on a device as soon as it can be"));
                return;
            }
            // The directory update and the start frame only if no stop got in first (the stop's
            // unregister would otherwise be overwritten, leaving an entry without an agent).
            AtomicReference<CompletableFuture<Void>> launched = new AtomicReference<>();
            if (!proxy.unlessStopped(() -> {
                directory.update(entry.onDevice(target.id()));
                launched.set(proxy.launch(target.id(), saved));
            })) {
                started.completeExceptionally(new UnknownAgentException(proxy.aid()));
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
                    started.completeExceptionally(failed);
                } else {
                    started.complete(null);
                }
            });
        });
        return started;
    }

    /**
     * Moves a client agent whose proxy is on this node to {@code requested} (null: a device the
     * balancer picks among the others), through its saved state: its device ends it (without its
     * {@code onStop}; it acknowledges what it handled first), the new device starts it from what it
     * saved, and the deliveries it had not acknowledged follow it, in order, with those that arrive
     * meanwhile. Returns once the move is under way ({@code untilStarted} false: an agent asking to
     * move hears where it goes, and its handler returns before its device ends it), or once the agent
     * has started there.
     */
    AgentInfo move(AID aid, String requested, boolean untilStarted) {
        ClientAgentProxy proxy = proxies.find(aid).orElseThrow(() -> new UnknownAgentException(aid));
        Device target;
        CompletableFuture<Void> ended;
        synchronized (this) { // not during a sweep
            String from = proxy.device();
            if (proxy.stopped() || from == null || !proxy.running() || proxy.readingState() || proxy.awaited() || proxy.leaving()) {
                throw new ClientAgentMoveException(409, "cannot move " + aid + " now: it is starting, moving or waiting for a device;"
                        + " try again once it runs");
            }
            target = moveTarget(aid, proxy, from, requested);
            ended = proxy.leaveDevice();
        }
        CompletableFuture<Void> started = ended.completeOnTimeout(null, LEAVE_PATIENCE_MS, TimeUnit.MILLISECONDS)
                .thenComposeAsync(ignored -> {
                    synchronized (this) {
                        proxy.detach();
                        return startFromSavedState(proxy, target);
                    }
                }, workers);
        AgentInfo moving = new AgentInfo(aid, proxy.agentClass(), target.id());
        if (!untilStarted) {
            return moving;
        }
        long patience = LEAVE_PATIENCE_MS + ClientAgentProxy.STATE_READ_TIMEOUT_MS + StartDeadline.current().timeoutMs();
        try {
            started.get(patience, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteNodeException("interrupted while moving " + aid);
        } catch (TimeoutException e) {
            throw new ClientAgentMoveException(504, "device " + target.id() + " did not start " + aid + " within " + patience
                    + " ms; it goes to another device, as after a lost device (GET /api/agents/{aid} shows where)");
        } catch (ExecutionException e) {
            throw Failures.refusal(e, cause -> new RemoteNodeException("the move of " + aid + " failed: " + cause));
        }
        return moving;
    }

    /** The device a client agent on {@code from} moves to: {@code requested}, or the balancer's pick among the others. */
    private Device moveTarget(AID aid, ClientAgentProxy proxy, String from, String requested) {
        if (requested == null) {
            List<Device> others = DevicePlacement.sortedById(registry.all()).stream().filter(d -> !d.id().equals(from)).toList();
            return placement.choose(others).orElseThrow(() -> others.isEmpty()
                    ? new NoDeviceException(proxy.agentClass()) : NoDeviceException.allSkipped(proxy.agentClass(), others.size()));
        }
        Device target = registry.find(requested).orElseThrow(() -> new InvalidAgentRequestException(
                "there is no device '" + requested + "'; GET /api/devices lists the joined devices"));
        if (target.id().equals(from)) {
            throw new InvalidAgentRequestException(aid + " is on device " + from + " already");
        }
        return target;
    }
}
