package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;

import org.junit.jupiter.api.Test;

/** The parts of a device's connection that need no socket: frames in parts, sizes, the state-request bound. */
class DeviceConnectionTest {

    private static DeviceLimits outboxOf(int bytes) {
        return new DeviceLimits(bytes, 1_000, 1_000, 1_000);
    }

    private final DeviceConnection connection = new DeviceConnection(null, outboxOf(1024), (c, bytes) -> { });

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

    /** A socket whose sends never complete (a device that does not read): records what was handed to it. */
    private static final class UnreadSocket {
        final List<String> written = new ArrayList<>();
        final List<SendHandler> pending = new ArrayList<>();
        final Session session = (Session) Proxy.newProxyInstance(Session.class.getClassLoader(), new Class<?>[] {Session.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getAsyncRemote" -> Proxy.newProxyInstance(Session.class.getClassLoader(),
                            new Class<?>[] {RemoteEndpoint.Async.class}, (p, m, a) -> {
                                if (m.getName().equals("sendText") && a.length == 2) {
                                    written.add((String) a[0]);
                                    pending.add((SendHandler) a[1]);
                                    return null;
                                }
                                throw new UnsupportedOperationException(m.getName());
                            });
                    case "isOpen" -> true;
                    default -> throw new UnsupportedOperationException(method.getName());
                });

        /** The device reads the oldest frame handed to the socket. */
        void completeOne() {
            pending.remove(0).onResult(new SendResult());
        }
    }

    @Test
    void framesWaitBehindTheOneInFlightUpToTheBoundThenTheDeviceIsGivenUpOnce() {
        UnreadSocket socket = new UnreadSocket();
        List<Long> overflows = new ArrayList<>();
        DeviceConnection c = new DeviceConnection(socket.session, outboxOf(100), (conn, bytes) -> overflows.add(bytes));

        c.send("in flight, not counted: " + "x".repeat(200));
        c.send("a".repeat(60));
        c.send("b".repeat(40)); // 100 bytes wait: at the bound, not over it
        assertEquals(1, socket.written.size());
        assertEquals(List.of(), overflows);

        c.send("c");
        assertEquals(List.of(101L), overflows, "101 bytes would wait");
        assertTrue(c.shut());
        c.send("d");
        assertEquals(1, overflows.size(), "told once; later frames are dropped");

        socket.completeOne();
        assertEquals(1, socket.written.size(), "what waited was dropped, not sent");
    }

    @Test
    void aFrameLargerThanTheBoundMayWaitAloneAndWhatWasReadFreesItsBytes() {
        UnreadSocket socket = new UnreadSocket();
        List<Long> overflows = new ArrayList<>();
        DeviceConnection c = new DeviceConnection(socket.session, outboxOf(100), (conn, bytes) -> overflows.add(bytes));

        c.send("first");
        c.send("é".repeat(150)); // 300 bytes, alone behind the one in flight
        assertEquals(List.of(), overflows);
        socket.completeOne();
        assertEquals(2, socket.written.size(), "the large one went out once the first was read");
        c.send("y".repeat(90));
        socket.completeOne();
        c.send("z".repeat(90)); // the 300 bytes were read: 90 wait behind the 90 in flight
        assertEquals(List.of(), overflows);
        assertFalse(c.shut());
    }
}
