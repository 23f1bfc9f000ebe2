package org.siebog.device;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.siebog.agent.AgentClass;
import org.siebog.agentmanager.AgentClassRegistry;
import org.siebog.agentmanager.LocalAgents;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentKind;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.NoDeviceException;
import org.siebog.api.UnknownAgentException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodes;
import org.siebog.delivery.AgentExecutor;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.platform.PlatformConfig;
import org.siebog.platform.Setting;
import org.siebog.state.StateManager;

/**
 * The devices joined to this node, and the proxies of client agents placed from this node.
 *
 * <p>One sweep a second keeps both honest: devices that stopped sending heartbeats (or never
 * joined) are closed, and every proxy whose device is no longer in the cluster's registry (it
 * left, or its node died) is started on another device ({@link RestartPacer} paces that after most
 * devices left at once). A device leaving this node triggers the sweep at once; other nodes'
 * proxies notice on their own next sweep, within a second.
 */
@ApplicationScoped
public class WebClientManagerBean implements WebClientManager, DevicePush, DeviceConnection.Overflow {

    private static final Logger LOG = Logger.getLogger(WebClientManagerBean.class.getName());
    static final long HEARTBEAT_MS = Setting.DEVICE_HEARTBEAT_MS.longValue();
    static final long JOIN_WITHIN_MS = 10_000;
    static final int MAX_FRAME_BYTES = Setting.DEVICE_MAX_FRAME_BYTES.intValue();
    static final int MAX_STATE_BYTES = Setting.STATE_MAX_BYTES.intValue();
    static final long CLEAR_WITHIN_MS = 5_000;
    /** How long devices that left together are waited for before their agents crowd onto those back. */
    static final long REJOIN_WINDOW_MS = Setting.DEVICE_REJOIN_WINDOW_MS.longValue();
    static final int MAX_PENDING_STATE = Setting.STATE_MAX_PENDING.intValue();
    /** Close code 1013: the device may come back, but it must read what it is sent (docs/device-protocol.md). */
    static final int TRY_AGAIN_LATER = 1013;

    @Inject
    DeviceRegistry registry;

    @Inject
    AgentDirectory directory;

    @Inject
    AgentClassRegistry classes;

    @Inject
    LocalAgents local;

    @Inject
    ClusterNode cluster;

    @Inject
    RemoteNodes remote;

    @Inject
    AgentExecutor executor;

    @Inject
    StateManager states;

    @Resource
    ManagedExecutorService workers;

    /** The joined devices' sockets on this node, by device id. */
    private final Map<String, DeviceConnection> connections = new ConcurrentHashMap<>();
    /** Sockets that have not joined yet (the sweep closes them after {@link #JOIN_WITHIN_MS}); a join moves one to {@link #connections}. */
    private final Map<DeviceConnection, Boolean> opened = new ConcurrentHashMap<>();
    private final Map<AID, ClientAgentProxy> proxies = new ConcurrentHashMap<>();
    private final ComputeUnitBalancer balancer = ComputeUnitBalancer.fromSystemProperty(this::agentsPerDevice);
    private final RestartPacer pacer = new RestartPacer(REJOIN_WINDOW_MS);
    private final SecureRandom ids = new SecureRandom();
    private final AtomicBoolean begun = new AtomicBoolean();
    private final AtomicBoolean sweepQueued = new AtomicBoolean();

    void begin(@Observes @Initialized(ApplicationScoped.class) Object deployed) {
        if (begun.getAndSet(true)) {
            return; // fired once per module of the EAR
        }
        long period = Math.min(1_000, HEARTBEAT_MS);
        executor.timer().scheduleWithFixedDelay(this::sweepSafely, period, period, TimeUnit.MILLISECONDS);
        cluster.onViewChange(this::forgetDevicesOfDeparted);
    }

    // --- connections ------------------------------------------------------------------------

    void opened(DeviceConnection connection) {
        opened.put(connection, Boolean.TRUE);
    }

    Device join(DeviceConnection connection, double computeUnits, String label) {
        Device device;
        do {
            device = new Device("d-" + HexFormat.of().toHexDigits(ids.nextInt()), cluster.name(), computeUnits, label);
        } while (!registry.register(device));
        connection.joinedAs(device.id());
        connections.put(device.id(), connection);
        opened.remove(connection);
        connection.send(new DeviceFrames.Welcome(device.id(), PlatformConfig.SYSTEM.platformName(), computeUnits, HEARTBEAT_MS,
                MAX_FRAME_BYTES, MAX_STATE_BYTES, MAX_PENDING_STATE).write());
        // A proxy waiting for a device (e.g. all devices had gone) need not wait for the next sweep.
        sweepSoon();
        return device;
    }

    void reportComputeUnits(DeviceConnection connection, double computeUnits) {
        registry.update(connection.deviceId(), d -> d.withComputeUnits(computeUnits));
    }

    /** Leaves the device out of placement for the backoff period, cluster-wide (its record says until when). */
    @Override
    public void missedStart(String device) {
        StartDeadline deadline = StartDeadline.current();
        long until = System.currentTimeMillis() + deadline.backoffMs();
        registry.update(device, d -> d.skippedUntil(Math.max(until, d.skippedUntil())));
        LOG.info(() -> "device " + device + " did not answer a start within " + deadline.timeoutMs() + " ms: placement leaves it out for "
                + deadline.backoffMs() + " ms");
    }

    /** The socket closed (leave, a closed tab, a timeout): the device is gone and its agents go elsewhere. */
    void closed(DeviceConnection connection) {
        opened.remove(connection);
        String id = connection.deviceId();
        if (id != null && connections.remove(id, connection)) {
            registry.remove(id);
            LOG.fine(() -> "device " + id + " left");
            sweepSoon();
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

    @Override
    public void toDevice(String device, String frame) {
        DeviceConnection here = connections.get(device);
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

    /** A frame another node sends to a device connected here. */
    public void pushFromNode(String device, String frame) {
        DeviceConnection here = connections.get(device);
        if (here != null) {
            here.send(frame);
        }
    }

    // --- client agents ----------------------------------------------------------------------

    @Override
    public DeviceChoice place(String agentClass, String requested) {
        Device chosen;
        if (requested != null) {
            chosen = registry.find(requested).orElseThrow(() -> new InvalidAgentRequestException(
                    "there is no device '" + requested + "'; GET /api/devices lists the joined devices"));
        } else {
            Collection<Device> joined = registry.all();
            chosen = balancer.select(sortedById(joined), System.currentTimeMillis()).orElseThrow(() -> joined.isEmpty()
                    ? new NoDeviceException(agentClass) : NoDeviceException.allSkipped(agentClass, joined.size()));
        }
        return new DeviceChoice(chosen.id(), chosen.node());
    }

    /** Sorted, so a seeded balancer makes the same choices whatever order the cache iterates in. */
    private static List<Device> sortedById(Collection<Device> joined) {
        List<Device> devices = new ArrayList<>(joined);
        devices.sort(Comparator.comparing(Device::id));
        return devices;
    }

    @Override
    public Agent proxy(DirectoryEntry entry) {
        ClientAgentProxy proxy = new ClientAgentProxy(entry.aid(), entry.agentClass(), moduleOf(entry.agentClass()),
                entry.args(), entry.device(), this, states::forStart);
        proxies.put(entry.aid(), proxy);
        return proxy;
    }

    @Override
    public void forget(AID aid, boolean forGood) {
        if (proxies.remove(aid) != null && forGood) {
            // Waited for, so that once a stop has answered, an agent of the same name starts empty.
            try {
                states.clear(aid).toCompletableFuture().get(CLEAR_WITHIN_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.warning(() -> "the saved state of stopped agent " + aid + " was not cleared: "
                        + (e.getCause() != null ? e.getCause() : e));
            }
        }
    }

    @Override
    public void takeOver(DirectoryEntry entry) {
        // Its device may still be joined (to another node) and running it: then it only needs a new proxy.
        boolean deviceAlive = entry.device() != null && registry.find(entry.device()).isPresent();
        local.adopt(entry.movedTo(cluster.name()), deviceAlive);
    }

    @Override
    public void adopted(AID aid, boolean running) {
        ClientAgentProxy proxy = proxies.get(aid);
        if (proxy != null && running) {
            proxy.started(proxy.device());
        } else if (proxy != null) {
            proxy.detach();
        }
    }

    /** An agent's report from its device (on the node holding the device's socket). */
    void fromDevice(DeviceConnection connection, String op, AID aid, long seq, String detail) {
        DirectoryEntry entry = directory.lookup(aid).orElse(null);
        if (entry == null) {
            // A report racing the agent's stop ("stopped" always does) is old news, not a mistake.
            if (op.equals("started")) {
                throw new UnknownAgentException(aid);
            }
            return;
        }
        if (entry.kind() != AgentKind.CLIENT || !connection.deviceId().equals(entry.device())) {
            throw new NotYourAgentException(connection.deviceId(), aid);
        }
        if (entry.node().equals(cluster.name())) {
            toProxy(aid, connection.deviceId(), op, seq, detail);
        } else {
            remote.deviceEvent(entry.node(), aid, connection.deviceId(), op, seq, detail);
        }
    }

    /** Delivers a device's report to the agent's proxy on this node. */
    public void toProxy(AID aid, String device, String op, long seq, String detail) {
        ClientAgentProxy proxy = proxies.get(aid);
        if (proxy == null) {
            return; // stopped meanwhile
        }
        switch (op) {
            case "started" -> proxy.started(device);
            case "ack" -> proxy.acknowledged(device, seq);
            case "agentError:start" -> proxy.failedToStart(device, detail);
            case "agentError:message", "agentError:stop" ->
                    LOG.log(Level.INFO, "client agent {0} on device {1} threw in {2}: {3}",
                            new Object[] {aid, device, op.substring(op.indexOf(':') + 1), detail});
            default -> { } // "stopped": nothing more to do
        }
    }

    boolean hosts(DeviceConnection connection, AID aid) {
        return directory.lookup(aid)
                .map(e -> e.kind() == AgentKind.CLIENT && connection.deviceId().equals(e.device()))
                .orElse(false);
    }

    /** The client agents on each device, as the directory says: device id → agents. */
    private Map<String, Long> agentsPerDevice() {
        return directory.all().stream()
                .filter(e -> e.kind() == AgentKind.CLIENT && e.device() != null)
                .collect(Collectors.groupingBy(DirectoryEntry::device, Collectors.counting()));
    }

    @Override
    public List<DeviceView> devices() {
        Map<String, Long> agents = agentsPerDevice();
        return registry.all().stream()
                .sorted(Comparator.comparing(Device::id))
                .map(d -> new DeviceView(d.id(), d.computeUnits(), agents.getOrDefault(d.id(), 0L), d.node(), d.label()))
                .toList();
    }

    private String moduleOf(String agentClass) {
        return classes.find(agentClass).filter(c -> c.kind() == AgentKind.CLIENT).map(AgentClass::binding)
                .orElseThrow(() -> new InvalidAgentRequestException(agentClass + " is not a client agent class"));
    }

    // --- the sweep ----------------------------------------------------------------------------

    /**
     * A sweep on a worker thread; joins and leaves arriving while one is still queued share it (a
     * thousand devices joining at once must not queue a thousand sweeps of every device).
     */
    private void sweepSoon() {
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
            LOG.log(Level.WARNING, "device sweep failed", e);
        }
    }

    private synchronized void sweep() {
        long now = System.currentTimeMillis();
        for (DeviceConnection c : opened.keySet()) {
            if (!c.joined() && now - c.openedAt() > JOIN_WITHIN_MS) {
                c.close(4001, "no join within " + JOIN_WITHIN_MS + " ms");
            }
        }
        for (DeviceConnection c : connections.values()) {
            if (now - c.lastSeen() > 3 * HEARTBEAT_MS) {
                c.close(4008, "no heartbeat for " + (now - c.lastSeen()) + " ms");
            }
        }
        List<ClientAgentProxy> homeless = new ArrayList<>();
        Set<String> missedStart = new HashSet<>();
        for (ClientAgentProxy proxy : proxies.values()) {
            if (proxy.stopped() || proxy.readingState() || proxy.awaited()) {
                continue; // on its way out (forget() follows), being started elsewhere, or its first start's caller waits
            }
            String device = proxy.device();
            boolean overdue = proxy.startOverdue(now);
            if (overdue && missedStart.add(device)) {
                missedStart(device); // before the devices are read below: this agent, and the next, go elsewhere
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
        List<Device> candidates = allowed > 0 ? sortedById(joined) : List.of();
        for (int i = 0; i < homeless.size(); i++) {
            ClientAgentProxy proxy = homeless.get(i);
            String device = proxy.device();
            boolean startsNow = i < allowed && !candidates.isEmpty();
            if (device == null && !startsNow) {
                continue; // already waiting for a device, and still must
            }
            if (device != null && proxy.startOverdue(now)) {
                toDevice(device, new DeviceFrames.Stop(proxy.aid()).write()); // so a late start there leaves no second copy running
            }
            proxy.detach();
            if (startsNow) {
                replace(proxy, candidates);
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
    private void replace(ClientAgentProxy proxy, List<Device> joined) {
        DirectoryEntry entry = directory.lookup(proxy.aid()).orElse(null);
        if (entry == null) {
            proxies.remove(proxy.aid());
            return;
        }
        Device target = balancer.select(joined, System.currentTimeMillis()).orElse(null);
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
            launched.get().whenComplete((ok, failed) -> {
                if (failed != null) {
                    LOG.warning(() -> proxy.aid() + " failed to start again and is stopped: " + failed.getMessage());
                    workers.execute(() -> local.stop(proxy.aid(), true));
                }
            });
        });
    }

    private void forgetDevicesOfDeparted(List<String> members) {
        for (Device d : registry.all()) {
            if (!members.contains(d.node())) {
                registry.remove(d.id());
            }
        }
    }
}
