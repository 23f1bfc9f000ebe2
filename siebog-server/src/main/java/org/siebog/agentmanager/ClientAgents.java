package org.siebog.agentmanager;

import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.Agent;
import org.siebog.directory.DirectoryEntry;

/**
 * What agent lifecycle needs of the browser devices that run client agents: where a new one goes,
 * the proxy through which its node's mailbox reaches it, and what becomes of that proxy when the
 * agent stops or its node dies. Declared here, by the package that uses it, and implemented by the
 * device package ({@code WebClientManagerBean}), so that agent lifecycle does not depend on devices
 * (docs/architecture.md, "Packages").
 */
public interface ClientAgents {

    /** A device chosen for a client agent, and the node its socket is on (where the agent's proxy goes). */
    record DeviceChoice(String device, String node) {
    }

    /**
     * The device for a new client agent: {@code requested} if given (it must be joined), else one
     * picked with probability proportional to its compute units among those that may take one (not
     * after a missed start deadline, not beyond its share).
     *
     * @throws org.siebog.api.InvalidAgentRequestException no such device
     * @throws org.siebog.api.NoDeviceException            no device is joined, or every one is left out
     */
    DeviceChoice place(String agentClass, String requested);

    /**
     * The proxy for a client agent placed on this node: the agent the node's mailbox calls. Its
     * {@code start} returns once the device has run the agent's {@code onStart}.
     */
    Agent proxy(DirectoryEntry entry);

    /**
     * A proxy made by {@link #proxy} for a client agent whose node died has been resumed here from its
     * saved record ({@link LocalAgents#resume}): it goes on with its device if that still runs the
     * agent, or waits for one.
     */
    void resumed(AID aid);

    /**
     * Moves a client agent whose proxy is on this node to another device through its saved state
     * ({@code device}: null for one the balancer picks); returns where it goes once the move is under
     * way, or, {@code untilStarted}, once it has started there.
     */
    AgentInfo move(AID aid, String device, boolean untilStarted);

    /** The proxy is gone with its agent: stopped for good ({@code forGood}: its saved state is cleared too), or only from this node. */
    void forget(AID aid, boolean forGood);
}
