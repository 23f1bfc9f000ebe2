package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading a device frame: scalars, nested values kept as the device wrote them, and what is not a frame. */
class DeviceFrameTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"a\":1,\"b\":[]}",
        "{\"x\":{\"y\":[1,2,{\"z\":\"}\"}]}, \"n\":null}",
        "\"quoted \\\"text\\\" \\u00e9 \u00e9\"",
        "[1, \"two\", {\"three\": 3.0e1}]",
        "-12.5e-3",
        "0",
        "true",
        "false",
        "null",
        "\"\""
    })
    void aStateIsTheDevicesOwnTextWhateverItsKind(String state) {
        DeviceFrame frame = DeviceFrame.parse("{\"op\":\"saveState\",\"aid\":\"a@siebog\",\"version\":3,\"state\": "
                + state + " ,\"ref\":7}");

        assertEquals(state, frame.json("state"));
        assertEquals(7L, frame.integer("ref"), "the fields after it are read too");
        assertEquals(3L, frame.integer("version"));
    }

    @Test
    void scalarsAreReadByKind() {
        DeviceFrame frame = DeviceFrame.parse(
                "{\"op\":\"join\",\"label\":\"tab \\\"1\\\"\",\"computeUnits\":12.5,\"ref\":-4,\"big\":123456789012345678901234,"
                        + "\"flag\":true,\"nothing\":null,\"list\":[1]}");

        assertEquals("join", frame.op());
        assertEquals("tab \"1\"", frame.string("label"));
        assertEquals(12.5, frame.number("computeUnits"));
        assertNull(frame.integer("computeUnits"), "12.5 is not an integer");
        assertEquals(-4L, frame.integer("ref"));
        assertNull(frame.integer("big"), "too large for a long");
        assertEquals(1.2345678901234568E23, frame.number("big"));
        assertNull(frame.string("flag"));
        assertNull(frame.string("computeUnits"), "a number is not a string");
        assertTrue(frame.has("nothing"));
        assertTrue(frame.absent("nothing"));
        assertTrue(frame.absent("missing"));
        assertFalse(frame.has("missing"));
        assertNull(frame.json("missing"));
        assertNull(frame.object("list"), "an array is not an object");
    }

    @Test
    void aNestedObjectIsParsedOnDemand() {
        DeviceFrame frame = DeviceFrame.parse("{\"op\":\"spawn\",\"args\":{\"n\":\"5\",\"deep\":{\"x\":[true]}}}");

        assertEquals("5", frame.object("args").getString("n"));
        assertEquals(true, frame.object("args").getJsonObject("deep").getJsonArray("x").getBoolean(0));
        assertNull(frame.object("op"));
    }

    @Test
    void theLastOfTwoEqualNamesCounts() {
        assertEquals("b", DeviceFrame.parse("{\"op\":\"a\",\"op\":\"b\"}").op());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "this is not json",
        "[1,2,3]",
        "\"op\"",
        "{\"noOp\":true}",
        "{\"op\":5}",
        "{\"op\":null}",
        "{\"op\":\"join\"",
        "{\"op\":\"join\"} {}",
        "{\"op\":\"join\"} x",
        "{'op':'join'}",
        "{\"op\":\"join\",\"n\":NaN}",
        "{\"op\":\"join\",\"n\":01}",
        "{\"op\":\"join\",}",
        ""
    })
    void anythingButOneObjectWithAStringOpBreaksTheProtocol(String text) {
        ProtocolViolation violation = assertThrows(ProtocolViolation.class, () -> DeviceFrame.parse(text));

        assertEquals(1007, violation.code);
    }
}
