package org.siebog.device;

/**
 * A device as {@code GET /api/devices} shows it.
 *
 * @param messagesPerSecond what it sent and acknowledged per second lately ({@code MessageRate}); null when
 *                          its node did not say within a second
 */
public record DeviceView(String id, double computeUnits, long agents, String node, String label, Double messagesPerSecond) {
}
