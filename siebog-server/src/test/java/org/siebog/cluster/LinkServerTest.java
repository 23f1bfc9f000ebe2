package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jgroups.util.DefaultSocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Performative;
import org.siebog.api.SiebogException;
import org.siebog.message.MessageId;

/**
 * What a node's link server takes from whom: deliveries from a node in its view, in the name it said
 * hello with, answered one outcome a message; nothing from a node outside the view, in another
 * protocol version, or in another node's name, and no other operation. Real sockets and threads;
 * plain TCP here (on a node the factory is WildFly's, TLS 1.3 with the cluster's certificate both
 * ways: ClusterSecretIT).
 */
class LinkServerTest {

    private static final AID RECEIVER = AID.parse("receiver@siebog");
    private static final int PATIENCE_MS = 10_000;

    private final List<String> admitted = new CopyOnWriteArrayList<>();
    /** Holds the admission of a message whose content is "hold" until counted down. */
    private final CountDownLatch held = new CountDownLatch(1);
    /** Counted down when the admission of "hold" has begun. */
    private final CountDownLatch holding = new CountDownLatch(1);
    private LinkServer server;

    @BeforeEach
    void start() throws IOException {
        server = LinkServer.start(new DefaultSocketFactory(), InetAddress.getLoopbackAddress(), Set.of("node2")::contains, (request, answer) -> {
            Wire.Writer outcomes = NodeAnswer.writer();
            for (NodeOp.Delivery d : request.deliveries()) {
                if (d.message().content().equals("hold")) {
                    holding.countDown();
                    await(held);
                }
                admitted.add(d.message().content());
                outcomes.outcome(null);
            }
            answer.accept(outcomes.toBytes());
        }, Thread::new);
    }

    @AfterEach
    void stop() {
        held.countDown();
        server.close();
    }

    @Test
    void aNodeInTheViewDeliversInOrderAndHearsOneOutcomePerMessage() throws IOException {
        try (Peer node2 = new Peer("node2")) {
            node2.send(7, deliver("node2", "one", "two", "three"));
            LinkFrames.Frame answer = node2.answer();
            assertEquals(7, answer.id(), "an answer carries its request's id");
            Wire.Reader outcomes = NodeAnswer.reader(answer.bytes());
            for (int i = 0; i < 3; i++) {
                assertNull(outcomes.outcome(), "message " + i + " admitted");
            }
            assertTrue(outcomes.atEnd());
            assertEquals(List.of("one", "two", "three"), admitted);
        }
    }

    @Test
    void aNodeOutsideTheViewIsClosedOnAndDeliversNothing() throws IOException {
        try (Peer stranger = new Peer("node9")) {
            stranger.trySend(1, deliver("node9", "let me in"));
            assertTrue(stranger.closedOn(), "the server closed the connection");
        }
        assertEquals(List.of(), admitted);
    }

    @Test
    void anotherProtocolVersionIsClosedOn() throws IOException {
        try (Peer older = new Peer(NodeOp.VERSION - 1, "node2")) {
            older.trySend(1, deliver("node2", "old"));
            assertTrue(older.closedOn());
        }
        assertEquals(List.of(), admitted);
    }

    @Test
    void aDeliveryInAnotherNodesNameIsRefusedAndAdmitsNothing() throws IOException {
        try (Peer node2 = new Peer("node2")) {
            node2.send(1, deliver("node3", "in node3's name"));
            assertRefused(node2.answer(), "a link carries deliveries from the node that opened it");
            node2.send(2, deliver("node2", "its own"));
            assertNull(NodeAnswer.reader(node2.answer().bytes()).outcome(), "the link goes on");
        }
        assertEquals(List.of("its own"), admitted);
    }

    @Test
    void noOtherOperationAndNoUnreadableRequestIsServedOnALink() throws IOException {
        try (Peer node2 = new Peer("node2")) {
            node2.send(1, new NodeOp.Health().toBytes());
            assertRefused(node2.answer(), "a link carries deliveries from the node that opened it, and only those");
            node2.send(2, new byte[] {(byte) NodeOp.VERSION, (byte) 99});
            assertRefused(node2.answer(), "its request was unreadable: unknown node operation 99");
        }
        assertEquals(List.of(), admitted);
    }

    @Test
    void aFrameLongerThanAnyBatchEndsTheConnectionBeforeAnythingIsRead() throws IOException {
        try (Peer node2 = new Peer("node2")) {
            node2.out.writeInt(LinkFrames.MAX_BYTES + 1);
            node2.out.writeLong(1);
            node2.out.flush();
            assertTrue(node2.closedOn());
        }
        assertEquals(List.of(), admitted);
    }

    @Test
    void aConnectionThatSaysNoHelloIsClosedOnAfterTheHandshakeTimeout() throws IOException {
        try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            silent.setSoTimeout(PATIENCE_MS);
            long started = System.nanoTime();
            assertEquals(-1, silent.getInputStream().read(), "closed, with nothing said");
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(waited >= LinkServer.HELLO_TIMEOUT_MS - 100, "not before its timeout: " + waited + " ms");
        }
    }

    /**
     * At most {@link LinkServer#MAX_CONNECTIONS} connections at once: one more is closed at once,
     * while those it found wait out their time to say hello; and a place frees once one ends.
     */
    @Test
    void oneConnectionMoreThanTheBoundIsClosedAtOnce() throws Exception {
        List<Socket> silent = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < LinkServer.MAX_CONNECTIONS; i++) {
                silent.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
            }
            try (Socket extra = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                extra.setSoTimeout(PATIENCE_MS);
                long started = System.nanoTime();
                assertEquals(-1, extra.getInputStream().read(), "closed");
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertTrue(waited < LinkServer.HELLO_TIMEOUT_MS / 2, "at once, not after the hello timeout: " + waited + " ms");
            }
        } finally {
            for (Socket s : silent) {
                s.close();
            }
        }
        // Once the server has seen the silent ones end, there is room again (until then a connection may still be turned away).
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MS);
        while (admitted.isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "no room again within " + PATIENCE_MS + " ms");
            try (Peer node2 = new Peer("node2")) {
                node2.send(1, deliver("node2", "after the crowd"));
                assertNull(NodeAnswer.reader(node2.answer().bytes()).outcome());
            } catch (IOException turnedAway) {
                Thread.sleep(10);
            }
        }
        assertEquals(List.of("after the crowd"), admitted);
    }

    /**
     * A node that connects again (its connection ended, as far as it could tell) sends first what it
     * had not heard answered. Its earlier connection may still be read on the server: the new one is
     * read only once the earlier one has ended, so its messages come after the earlier one's.
     */
    @Test
    void aNewConnectionFromANodeIsReadOnlyAfterItsEarlierOneEnded() throws Exception {
        try (Peer first = new Peer("node2")) {
            first.send(1, deliver("node2", "hold"));
            assertTrue(holding.await(PATIENCE_MS, TimeUnit.MILLISECONDS), "the first connection's message is being admitted");
            try (Peer second = new Peer("node2")) {
                second.send(1, deliver("node2", "after"));
                Thread.sleep(200); // what the test shows: in that time, without the rule, "after" would be admitted first
                held.countDown();
                assertNull(NodeAnswer.reader(second.answer().bytes()).outcome());
                assertEquals(List.of("hold", "after"), admitted);
                assertTrue(first.closedOn(), "the earlier connection was closed");
            }
        }
    }

    private static void assertRefused(LinkFrames.Frame answer, String why) throws IOException {
        SiebogException refusal = NodeAnswer.reader(answer.bytes()).outcome();
        assertNotNull(refusal, "refused");
        assertTrue(refusal.getMessage().contains(why), refusal.getMessage());
    }

    private static byte[] deliver(String from, String... contents) {
        List<NodeOp.Delivery> deliveries = new java.util.ArrayList<>();
        long counter = 0;
        for (String content : contents) {
            ACLMessage m = ACLMessage.builder(Performative.INFORM).receiver(RECEIVER).content(content).build();
            deliveries.add(new NodeOp.Delivery(RECEIVER, new MessageId("sender@siebog", ++counter), m));
        }
        return new NodeOp.Deliver(from, 1, deliveries).toBytes();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(PATIENCE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Another node's end of a link, speaking the protocol by hand. */
    private final class Peer implements AutoCloseable {
        private final Socket socket;
        final DataOutputStream out;
        private final DataInputStream in;

        Peer(String name) throws IOException {
            this(NodeOp.VERSION, name);
        }

        Peer(int version, String name) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
            socket.setSoTimeout(PATIENCE_MS);
            out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            out.writeByte(version);
            out.writeUTF(name);
            out.flush();
        }

        void send(long id, byte[] request) throws IOException {
            LinkFrames.write(out, id, request);
        }

        /** Sends, or finds the connection already closed. */
        void trySend(long id, byte[] request) {
            try {
                send(id, request);
            } catch (IOException closed) {
                // the server may close before this is written: what the test checks next
            }
        }

        LinkFrames.Frame answer() throws IOException {
            return LinkFrames.read(in);
        }

        /** True when the server has closed: the next read ends (or fails) without an answer. */
        boolean closedOn() {
            try {
                InputStream raw = in;
                return raw.read() == -1;
            } catch (IOException reset) {
                return true;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
