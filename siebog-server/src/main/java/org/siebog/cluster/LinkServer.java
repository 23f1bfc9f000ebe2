package org.siebog.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.jgroups.util.SocketFactory;
import org.siebog.api.RemoteNodeException;
import org.siebog.platform.Setting;

/**
 * Where the other nodes' links ({@link NodeLink}) connect to deliver messages to this node's agents:
 * a TLS server socket beside JGroups', with the same keys and the same rule (TLS 1.3, the cluster's
 * certificate both ways: WildFly's socket factory for the transport makes it), on the transport's
 * address and the port {@code siebog.cluster.link-port} names (by default one the kernel picks),
 * which a node asks for ({@link NodeOp.LinkPort}).
 *
 * <p>Why a socket of Siebog's own and not a JGroups request: a request and its answer cross
 * JGroups' bundler, its unicast and fork protocols and its request correlator, each on a thread of
 * its own; a message took 80 to 100 µs from one node to the other that way, against about 12 µs for
 * a TCP write and read between the same two JVMs (perf/README.md, "Where the time goes on a round trip across nodes").
 * JGroups keeps what it does well: the view, failure detection, and Infinispan's replication.
 *
 * <p>Each connection is read by a thread of its own, which admits the messages as they come, in
 * order (an admission never blocks); the answers go back on the same connection when the batch is
 * logged, written by another thread. A node has one link to each other node; when it connects again, its earlier connection
 * is closed and read to its end first, so that its messages are admitted before the new one's.
 */
final class LinkServer {

    private static final Logger LOG = Logger.getLogger(LinkServer.class.getName());
    /** Time for a connecting node's TLS handshake and hello. */
    static final int HELLO_TIMEOUT_MS = HandshakeTimeoutSockets.HANDSHAKE_TIMEOUT_MS;
    /** Connections at once: one from each other node, and room for those being replaced; more are closed. */
    static final int MAX_CONNECTIONS = 64;
    /**
     * The kernel's send buffer of a link's sockets, both ends: far more than a posting thread lets go
     * unanswered before it leaves the writing to the link's thread ({@code NodeLink}), so that its
     * write never waits on a node that reads nothing (Linux starts a socket at 16 KB).
     */
    static final int SEND_BUFFER_BYTES = 1 << 20;

    private final ServerSocket server;
    private final SocketFactory sockets;
    private final Predicate<String> peers;
    private final LinkDeliveries deliveries;
    private final ThreadFactory threads;
    private final Semaphore room = new Semaphore(MAX_CONNECTIONS);
    private final Map<String, Served> current = new ConcurrentHashMap<>();

    /** One connection being read, by the thread that reads it. */
    private record Served(Socket socket, Thread reader) {
    }

    private LinkServer(ServerSocket server, SocketFactory sockets, Predicate<String> peers, LinkDeliveries deliveries, ThreadFactory threads) {
        this.server = server;
        this.sockets = sockets;
        this.peers = peers;
        this.deliveries = deliveries;
        this.threads = threads;
    }

    /**
     * Listens on {@code address}; {@code peers} says whether a node that says hello is one this node
     * takes messages from (in its view).
     */
    static LinkServer start(SocketFactory sockets, InetAddress address, Predicate<String> peers, LinkDeliveries deliveries, ThreadFactory threads)
            throws IOException {
        ServerSocket server = sockets.createServerSocket("siebog-link");
        server.bind(new InetSocketAddress(address, Setting.LINK_PORT.intValue()), MAX_CONNECTIONS);
        LinkServer links = new LinkServer(server, sockets, peers, deliveries, threads);
        Thread acceptor = threads.newThread(links::accept);
        acceptor.setName("siebog-link-server");
        acceptor.setDaemon(true);
        acceptor.start();
        return links;
    }

    int port() {
        return server.getLocalPort();
    }

    void close() {
        try {
            sockets.close(server);
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing the link server", e);
        }
        current.values().forEach(served -> closeQuietly(served.socket()));
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    LOG.log(Level.WARNING, "the link server could not accept a connection", e);
                }
                continue;
            }
            if (!room.tryAcquire()) {
                LOG.warning(() -> "closed a link connection from " + socket.getRemoteSocketAddress() + ": " + MAX_CONNECTIONS + " are open");
                closeQuietly(socket);
                continue;
            }
            Thread reader = threads.newThread(() -> {
                try {
                    serve(socket);
                } finally {
                    room.release();
                }
            });
            reader.setName("siebog-link-in");
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void serve(Socket socket) {
        String peer = null;
        Served served = null;
        try (socket) {
            socket.setSoTimeout(HELLO_TIMEOUT_MS);
            socket.setTcpNoDelay(true);
            socket.setSendBufferSize(SEND_BUFFER_BYTES);
            DataInputStream in = LinkFrames.in(socket);
            peer = LinkFrames.hello(in); // reading it completes the TLS handshake: a stranger ends there
            if (!peers.test(peer)) {
                String who = peer;
                LOG.warning(() -> "closed a link from " + who + " at " + socket.getRemoteSocketAddress() + ": not a node in this node's view");
                return;
            }
            socket.setSoTimeout(0);
            Thread.currentThread().setName("siebog-link-in-" + peer);
            served = new Served(socket, Thread.currentThread());
            Served earlier = current.put(peer, served);
            if (earlier != null) {
                closeQuietly(earlier.socket());
                earlier.reader().join(HELLO_TIMEOUT_MS); // its last messages are admitted before this connection's first
            }
            read(peer, in, socket);
        } catch (SocketException e) {
            LOG.log(Level.FINE, "a link from " + peer + " ended: " + e);
        } catch (IOException e) {
            String who = peer;
            LOG.log(peer == null ? Level.WARNING : Level.FINE, () -> "a link from " + (who == null ? socket.getRemoteSocketAddress() : who) + " ended: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (served != null) {
                current.remove(peer, served);
            }
        }
    }

    /** Admits what {@code peer} sends, frame after frame, until the connection ends. */
    private void read(String peer, DataInputStream in, Socket socket) throws IOException {
        Answers answers = new Answers(LinkFrames.out(socket), peer);
        Thread writer = threads.newThread(answers::write);
        writer.setName("siebog-link-answers-to-" + peer);
        writer.setDaemon(true);
        writer.start();
        try {
            while (true) {
                LinkFrames.Frame frame = LinkFrames.read(in);
                Consumer<byte[]> answer = bytes -> answers.add(new LinkFrames.Frame(frame.id(), bytes));
                NodeOp request;
                try {
                    request = NodeOp.read(new Wire.Reader(frame.bytes(), 0, frame.bytes().length));
                } catch (IOException e) {
                    LOG.warning(() -> "refused an unreadable request on the link from " + peer + ": " + e);
                    answer.accept(NodeAnswer.of(new RemoteNodeException("its request was unreadable: " + e.getMessage())));
                    continue;
                }
                if (request instanceof NodeOp.Deliver deliver && peer.equals(deliver.from())) {
                    deliveries.deliver(deliver, answer);
                } else {
                    LOG.warning(() -> "refused a " + request.getClass().getSimpleName() + " on the link from " + peer);
                    answer.accept(NodeAnswer.of(new RemoteNodeException("a link carries deliveries from the node that opened it, and only those")));
                }
            }
        } finally {
            writer.interrupt();
        }
    }

    /**
     * The answers of one connection, written by a thread of their own: a batch is answered when its
     * messages are logged, on whatever thread completed that, which must never wait on a socket (the
     * other node paused, or cut off, reads nothing). What waits here is bounded by what that node
     * sent before it went silent. If the connection has ended, the other node sends the batch again
     * on its next one, and the messages' identities keep it from being admitted twice.
     */
    private static final class Answers {
        private final BlockingQueue<LinkFrames.Frame> queue = new LinkedBlockingQueue<>();
        private final DataOutputStream out;
        private final String peer;

        Answers(DataOutputStream out, String peer) {
            this.out = out;
            this.peer = peer;
        }

        void add(LinkFrames.Frame answer) {
            queue.add(answer);
        }

        void write() {
            try {
                while (true) {
                    LinkFrames.Frame answer = queue.take();
                    do {
                        LinkFrames.append(out, answer.id(), answer.bytes());
                    } while ((answer = queue.poll()) != null);
                    out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                LOG.log(Level.FINE, "could not answer " + peer + " on its link: " + e);
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing a link", e);
        }
    }
}
