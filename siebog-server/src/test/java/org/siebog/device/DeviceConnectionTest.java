package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The parts of a device's connection that need no socket: frames in parts, sizes, the state-request bound. */
class DeviceConnectionTest {

    private final DeviceConnection connection = new DeviceConnection(null);

    @Test
    void atMostTheLimitOfStateRequestsArePendingAndAnswersFreeTheirPlace() {
        assertTrue(connection.beginStateRequest(2));
        assertTrue(connection.beginStateRequest(2));
        assertFalse(connection.beginStateRequest(2), "a third while two wait");
        assertFalse(connection.beginStateRequest(2), "refusals take no place");

        connection.endStateRequest();

        assertTrue(connection.beginStateRequest(2));
        assertFalse(connection.beginStateRequest(2));
    }

    @Test
    void aFrameInPartsIsWholeWithItsLastPartAndTooLargeOnceOverTheLimit() {
        assertNull(connection.assemble("{\"op\":", false, 20));
        assertEquals("{\"op\":\"x\"}", connection.assemble("\"x\"}", true, 20));
        assertNull(connection.assemble("é".repeat(11), true, 20), "22 bytes of UTF-8");
        assertTrue(connection.frameTooLarge());
    }

    @Test
    void utf8LengthCountsBytesNotChars() {
        assertEquals(3, DeviceConnection.utf8Length("abc"));
        assertEquals(2, DeviceConnection.utf8Length("é"));
        assertEquals(3, DeviceConnection.utf8Length("€"));
        assertEquals(4, DeviceConnection.utf8Length("😀"));
    }
}
