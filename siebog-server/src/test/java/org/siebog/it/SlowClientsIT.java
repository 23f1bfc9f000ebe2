package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Reply;

/**
 * A node that slow clients cannot stop (docs/security.md, "Slow clients"): 200 connections, each
 * sending the headers and half the body of a {@code POST /api/messages} and then nothing, try to hold
 * the node for 60 s. Meanwhile the API answers within a second, a joined device's heartbeats are
 * answered and it is not evicted; and the node closes the slow connections by its read timeout
 * (30 s), long before the 60 s are up.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SlowClientsIT {

    private static final int SLOW_CONNECTIONS = 200;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    /** How long the attackers would hold their connections, were they let. */
    private static final Duration HOLD = Duration.ofSeconds(60);

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    void halfSentBodiesStopNeitherTheApiNorTheDevicesAndAreClosedByTheReadTimeout() throws Exception {
        SiebogApi viewer = siebog.as("viewer");
        try (TestDevice device = TestDevice.join(siebog, 10)) {
            List<Socket> slow = new ArrayList<>();
            long started = System.nanoTime();
            try {
                for (int i = 0; i < SLOW_CONNECTIONS; i++) {
                    slow.add(halfSentPost());
                }
                int heardBefore = device.heartbeatsHeard();
                long worstMillis = 0;
                int calls = 0;
                // While every slow connection is still held (well before the read timeout).
                while (elapsed(started).compareTo(READ_TIMEOUT.minusSeconds(8)) < 0) {
                    long t0 = System.nanoTime();
                    Reply nodes = viewer.get("nodes");
                    long millis = (System.nanoTime() - t0) / 1_000_000;
                    assertEquals(200, nodes.status(), () -> "GET /nodes beside " + SLOW_CONNECTIONS + " slow bodies: " + nodes);
                    worstMillis = Math.max(worstMillis, millis);
                    calls++;
                    SiebogApi.sleep(250);
                }
                long held = slow.stream().filter(s -> !s.isClosed()).count();
                assertEquals(SLOW_CONNECTIONS, held, "the slow connections were all still open while the API was called");
                assertTrue(worstMillis < 1000, "the slowest of " + calls + " GET /nodes took " + worstMillis + " ms");
                assertTrue(device.isOpen(), "the device was evicted while slow clients held the node");
                assertTrue(siebog.get("devices").body().contains(device.id()), "the device is still listed");
                int answered = device.heartbeatsHeard() - heardBefore;
                // TestDevice sends one every 500 ms; a node whose frames stall would answer none.
                assertTrue(answered >= 20, "only " + answered + " heartbeats were answered meanwhile");

                Duration lastClosed = Duration.ZERO;
                for (Socket socket : slow) {
                    lastClosed = assertClosedByTheNode(socket, started);
                }
                System.err.printf("SlowClientsIT: %d slow bodies; slowest of %d GET /nodes %d ms; %d heartbeats answered;"
                        + " the last slow connection closed after %.1f s%n", SLOW_CONNECTIONS, calls, worstMillis, answered,
                        lastClosed.toMillis() / 1000.0);
            } finally {
                for (Socket socket : slow) {
                    socket.close();
                }
            }
        }
    }

    /** A POST that declares 200 bytes of body, sends 100 and goes silent, as an authenticated user. */
    private static Socket halfSentPost() throws IOException {
        Socket socket = new Socket("127.0.0.1", siebogPort());
        String head = "POST /siebog/api/messages HTTP/1.1\r\n"
                + "Host: 127.0.0.1\r\n"
                + "Authorization: " + SiebogApi.authorization("user") + "\r\n"
                + "Content-Type: application/json\r\n"
                + "Content-Length: 200\r\n\r\n";
        OutputStream out = socket.getOutputStream();
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write("{\"performative\": \"INFORM\", \"receivers\": [\"nobody@siebog\"], \"content\": \"".getBytes(StandardCharsets.US_ASCII));
        out.write("x".repeat(100 - 72).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** Reads until the node closes the connection (whatever it answers first); fails if that takes past {@link #HOLD}. */
    private static Duration assertClosedByTheNode(Socket socket, long started) throws IOException {
        InputStream in = socket.getInputStream();
        try {
            while (true) {
                Duration left = HOLD.minus(elapsed(started));
                assertTrue(!left.isNegative(), "a slow connection was still open after " + HOLD.toSeconds() + " s");
                socket.setSoTimeout((int) Math.max(1, left.toMillis()));
                if (in.read() < 0) {
                    break;
                }
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("a slow connection was still open after " + HOLD.toSeconds() + " s", e);
        } catch (SocketException e) {
            // reset by the node: closed too
        }
        Duration closedAfter = elapsed(started);
        assertTrue(closedAfter.compareTo(READ_TIMEOUT.plusSeconds(15)) < 0, "closed only after " + closedAfter.toSeconds() + " s");
        return closedAfter;
    }

    private static Duration elapsed(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    private static int siebogPort() {
        return Integer.getInteger("siebog.it.httpPort", 11080);
    }
}
