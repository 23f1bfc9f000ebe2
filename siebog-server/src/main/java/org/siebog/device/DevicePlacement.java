package org.siebog.device;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.AgentKind;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.NoDeviceException;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;

/**
 * Which device a client agent goes to: by compute units ({@link ComputeUnitBalancer}), leaving out
 * devices that missed a start deadline lately and those over their share; and the devices as
 * {@code GET /api/devices} shows them.
 */
@ApplicationScoped
class DevicePlacement {

    private static final Logger LOG = Logger.getLogger(DevicePlacement.class.getName());

    @Inject
    DeviceRegistry registry;

    @Inject
    AgentDirectory directory;

    private final ComputeUnitBalancer balancer = ComputeUnitBalancer.fromSystemProperty(this::agentsPerDevice);

    /** The device for a new client agent: {@code requested} if given and joined, else the balancer's choice. */
    Device place(String agentClass, String requested) {
        if (requested != null) {
            return registry.find(requested).orElseThrow(() -> new InvalidAgentRequestException(
                    "there is no device '" + requested + "'; GET /api/devices lists the joined devices"));
        }
        Collection<Device> joined = registry.all();
        return choose(sortedById(joined)).orElseThrow(() -> joined.isEmpty()
                ? new NoDeviceException(agentClass) : NoDeviceException.allSkipped(agentClass, joined.size()));
    }

    /** The balancer's choice among {@code candidates} (sorted by id), if any may take an agent now. */
    Optional<Device> choose(List<Device> candidates) {
        return balancer.select(candidates, System.currentTimeMillis());
    }

    /** Sorted, so a seeded balancer makes the same choices whatever order the cache iterates in. */
    static List<Device> sortedById(Collection<Device> joined) {
        List<Device> devices = new ArrayList<>(joined);
        devices.sort(Comparator.comparing(Device::id));
        return devices;
    }

    /** Leaves the device out of placement for the backoff period, cluster-wide (its record says until when). */
    void missedStart(String device) {
        StartDeadline deadline = StartDeadline.current();
        long until = System.currentTimeMillis() + deadline.backoffMs();
        registry.update(device, d -> d.skippedUntil(Math.max(until, d.skippedUntil())));
        LOG.info(() -> "device " + device + " did not answer a start within " + deadline.timeoutMs() + " ms: placement leaves it out for "
                + deadline.backoffMs() + " ms");
    }

    /** A device's new figure of compute units (taken only where claims are trusted: {@link ComputeUnitPolicy}). */
    void reportComputeUnits(String device, double computeUnits) {
        registry.update(device, d -> d.withComputeUnits(computeUnits));
    }

    /** The joined devices, with the messages per second their nodes reported ({@code rates}: device id → rate). */
    List<DeviceView> devices(Map<String, Double> rates) {
        Map<String, Long> agents = agentsPerDevice();
        return registry.all().stream()
                .sorted(Comparator.comparing(Device::id))
                .map(d -> new DeviceView(d.id(), d.computeUnits(), agents.getOrDefault(d.id(), 0L), d.node(), d.label(), rates.get(d.id())))
                .toList();
    }

    /** The client agents on each device, as the directory says: device id → agents. */
    private Map<String, Long> agentsPerDevice() {
        return directory.all().stream()
                .filter(e -> e.kind() == AgentKind.CLIENT && e.device() != null)
                .collect(Collectors.groupingBy(DirectoryEntry::device, Collectors.counting()));
    }
}
