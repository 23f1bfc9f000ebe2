package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DeviceTest {

    @Test
    void survivesTheRegistrysJsonForm() {
        Device device = new Device("d-0badf00d", "node2", 12.5, "Firefox \"on\" a phone");
        assertEquals(device, Device.fromJson(device.id(), device.toJson()));
    }
}
