package org.siebog.device;

import java.util.List;

import org.siebog.agentmanager.ClientAgents;

import org.siebog.api.NoDeviceException;

/**
 * Browser devices and the client agents they run: which devices are joined and how fast they are
 * (for the REST API), and what agent lifecycle asks of them ({@link ClientAgents}: where a new
 * client agent goes, the server-side proxy through which every message to it reaches its device;
 * see docs/device-protocol.md).
 */
public interface WebClientManager extends ClientAgents {

    List<DeviceView> devices();
}
