package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DeviceTest {

    @Test
    void survivesTheRegistrysJsonForm() {
        Device device = new Device("d-0badf00d", "node2", 12.5, "Firefox \"on\" a phone");
        assertEquals(device, Device.fromJson(device.id(), device.toJson()));
        Device skipped = device.skippedUntil(1_700_000_000_000L);
        assertEquals(skipped, Device.fromJson(skipped.id(), skipped.toJson()));
    }

    @Test
    void aRecordWrittenWithoutABackoffIsNotSkipped() {
        Device device = Device.fromJson("d-00000001", "{\"node\":\"node1\",\"computeUnits\":3.0,\"label\":\"\"}");
        assertEquals(0, device.skippedUntil());
        assertFalse(device.skipped(System.currentTimeMillis()));
    }

    @Test
    void skippedUntilTheBackoffEnds() {
        Device device = new Device("d-00000001", "node1", 3, "").skippedUntil(1_000);
        assertTrue(device.skipped(999));
        assertFalse(device.skipped(1_000));
    }
}
