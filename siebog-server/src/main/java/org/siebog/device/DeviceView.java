package org.siebog.device;

/** A device as {@code GET /api/devices} shows it. */
public record DeviceView(String id, double computeUnits, long agents, String node, String label) {
}
