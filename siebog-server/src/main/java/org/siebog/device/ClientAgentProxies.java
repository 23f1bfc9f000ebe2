package org.siebog.device;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.agent.AgentClass;
import org.siebog.agentmanager.AgentClassRegistry;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentKind;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.UnknownAgentException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodes;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.state.StateManager;

/**
 * The proxies of the client agents placed from this node ({@link ClientAgentProxy}), and the
 * devices' reports about those agents ({@code started}, {@code ack}, {@code agentError}), which
 * reach a proxy on whichever node holds it.
 */
@ApplicationScoped
class ClientAgentProxies {

    private static final Logger LOG = Logger.getLogger(ClientAgentProxies.class.getName());
    /** How long a stop waits for the stopped agent's saved state to be cleared. */
    static final long CLEAR_WITHIN_MS = 5_000;

    @Inject
    DeviceRouting routing;

    @Inject
    DeviceRegistry registry;

    @Inject
    AgentDirectory directory;

    @Inject
    AgentClassRegistry classes;

    @Inject
    ClusterNode cluster;

    @Inject
    RemoteNodes remote;

    @Inject
    StateManager states;

    @Inject
    MeterRegistry meters;

    private final Map<AID, ClientAgentProxy> proxies = new ConcurrentHashMap<>();

    @PostConstruct
    void meters() {
        Gauge.builder("siebog.client.agents", proxies, Map::size)
                .description("Client agents whose proxy is on this node (the agents run on devices)").register(meters);
    }

    Agent create(DirectoryEntry entry) {
        ClientAgentProxy proxy = new ClientAgentProxy(entry.aid(), entry.agentClass(), moduleOf(entry.agentClass()),
                entry.args(), entry.device(), routing, states::forStart);
        proxies.put(entry.aid(), proxy);
        return proxy;
    }

    private String moduleOf(String agentClass) {
        return classes.find(agentClass).filter(c -> c.kind() == AgentKind.CLIENT).map(AgentClass::binding)
                .orElseThrow(() -> new InvalidAgentRequestException(agentClass + " is not a client agent class"));
    }

    /** The proxy of {@code aid} on this node, if it is here. */
    Optional<ClientAgentProxy> find(AID aid) {
        return Optional.ofNullable(proxies.get(aid));
    }

    /** Every proxy on this node, for the sweep. */
    Collection<ClientAgentProxy> all() {
        return proxies.values();
    }

    /** The proxy is gone; with {@code forGood}, its saved state too (waited for, so an agent of the same name starts empty). */
    void forget(AID aid, boolean forGood) {
        if (proxies.remove(aid) != null && forGood) {
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

    /**
     * A proxy resumed here for a client agent whose node died: its device may still be joined (to
     * another node) and running the agent, and then takes the deliveries it had not acknowledged again
     * (dropping those it had handled by their numbers); otherwise the sweep starts the agent on another.
     */
    void resumed(AID aid) {
        ClientAgentProxy proxy = proxies.get(aid);
        if (proxy == null) {
            return;
        }
        String device = proxy.device();
        if (device != null && registry.find(device).isPresent()) {
            proxy.started(device);
        } else {
            proxy.detach();
        }
    }

    /**
     * A device's report about one of its agents (on the node holding the device's socket): to the
     * agent's proxy, here or on its node.
     *
     * @throws UnknownAgentException  a {@code started} for an agent that does not exist
     * @throws NotYourAgentException  the agent is not on that device
     */
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
            if (op.equals("stopped") && entry.kind() == AgentKind.CLIENT) {
                return; // the device it moved from, confirming the stop after the agent started elsewhere
            }
            throw new NotYourAgentException(connection.deviceId(), aid);
        }
        if (entry.node().equals(cluster.name())) {
            report(aid, connection.deviceId(), op, seq, detail);
        } else {
            remote.deviceEvent(entry.node(), aid, connection.deviceId(), op, seq, detail);
        }
    }

    /** A device's report to the agent's proxy on this node. */
    void report(AID aid, String device, String op, long seq, String detail) {
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
            case "stopped" -> proxy.ended(device); // matters only to a move waiting for it
            default -> { }
        }
    }

    /** Whether {@code aid} is a client agent on the socket's device, as the directory says. */
    boolean hostedBy(DeviceConnection connection, AID aid) {
        return directory.lookup(aid)
                .map(e -> e.kind() == AgentKind.CLIENT && connection.deviceId().equals(e.device()))
                .orElse(false);
    }

    /** A proxy whose agent's directory entry is gone (stopped meanwhile) is dropped. */
    void remove(AID aid) {
        proxies.remove(aid);
    }
}
