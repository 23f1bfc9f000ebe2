package org.siebog.device;

import java.util.List;

import org.siebog.api.Agent;
import org.siebog.api.NoDeviceException;
import org.siebog.directory.DirectoryEntry;

/**
 * Browser devices and the client agents they run: which devices are joined and how fast they are,
 * where a new client agent goes, and the server-side proxy through which every message to a client
 * agent reaches its device (see docs/device-protocol.md).
 */
public interface WebClientManager {

    /**
     * The device for a new client agent: {@code requested} if given (it must be joined), else one
     * picked with probability proportional to its compute units among those that may take one
     * (see {@link ComputeUnitBalancer}: not after a missed start deadline, not beyond its share).
     *
     * @throws org.siebog.api.InvalidAgentRequestException no such device
     * @throws NoDeviceException                                   no device is joined
     */
    Device place(String agentClass, String requested);

    /**
     * The proxy for a client agent placed on this node: the agent the node's mailbox calls. Its
     * {@code start} returns once the device has run the agent's {@code onStart}.
     */
    Agent proxy(DirectoryEntry entry);

    /** After a failover: carries on as the proxy of a client agent whose node died. */
    void takeOver(DirectoryEntry entry);

    List<DeviceView> devices();
}
