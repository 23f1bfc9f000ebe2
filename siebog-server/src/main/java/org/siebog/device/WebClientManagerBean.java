package org.siebog.device;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.Agent;
import org.siebog.directory.DirectoryEntry;

/**
 * The device package as the rest of the node sees it: agent lifecycle ({@link WebClientManager},
 * {@link org.siebog.agentmanager.ClientAgents}), the REST API and other nodes ({@link DeviceRelay}).
 * Each concern is a bean of its own, and this only hands requests to them:
 * <ul>
 * <li>{@link DeviceSockets}: the sockets of the devices joined here, joins, leaves, silent sockets;</li>
 * <li>{@link DeviceRouting}: frames to a device wherever its socket is;</li>
 * <li>{@link DevicePlacement}: which device a client agent goes to;</li>
 * <li>{@link ClientAgentProxies}: the client agents' proxies on this node and their devices' reports;</li>
 * <li>{@link ClientAgentRestarts}: the sweep that starts agents whose device went on another, paced.</li>
 * </ul>
 */
@ApplicationScoped
public class WebClientManagerBean implements WebClientManager, DeviceRelay {

    @Inject
    DevicePlacement placement;

    @Inject
    ClientAgentProxies proxies;

    @Inject
    DeviceRouting routing;

    @Inject
    DeviceSockets sockets;

    @Inject
    ClientAgentRestarts restarts;

    @Override
    public DeviceChoice place(String agentClass, String requested) {
        Device chosen = placement.place(agentClass, requested);
        return new DeviceChoice(chosen.id(), chosen.node());
    }

    @Override
    public Agent proxy(DirectoryEntry entry) {
        return proxies.create(entry);
    }

    @Override
    public AgentInfo move(AID aid, String device, boolean untilStarted) {
        return restarts.move(aid, device, untilStarted);
    }

    @Override
    public void forget(AID aid, boolean forGood) {
        proxies.forget(aid, forGood);
    }

    @Override
    public void resumed(AID aid) {
        proxies.resumed(aid);
    }

    @Override
    public List<DeviceView> devices() {
        return placement.devices(routing.messageRates());
    }

    @Override
    public Map<String, Double> messageRates() {
        return sockets.messageRates();
    }

    @Override
    public void pushFromNode(String device, String frame) {
        routing.pushFromNode(device, frame);
    }

    @Override
    public void deviceEvent(AID aid, String device, String op, long seq, String detail) {
        proxies.report(aid, device, op, seq, detail);
    }
}
