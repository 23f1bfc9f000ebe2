package org.siebog.cluster;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.MulticastSocket;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.net.ssl.SSLSocket;

import org.jgroups.protocols.TP;
import org.jgroups.util.SocketFactory;

/**
 * The sockets of the cluster's JGroups transport, with a timeout on the TLS handshake of the
 * connections this node opens.
 *
 * <p>Why: JGroups' TCP transport connects, then starts the TLS handshake with no read timeout. A
 * peer that is paused (a long GC, a frozen VM, SIGSTOP) still accepts the TCP connection in its
 * kernel but never answers the handshake, and the connecting thread waits until the peer wakes up.
 * That thread is the transport's only bundler thread, which sends every message of the node: a
 * node that reconnected to a paused peer (JGroups closes the connections to a node that leaves the
 * view, and discovery opens them again) sent nothing to anyone any more, and the two healthy nodes
 * of a three-node cluster lost each other seconds after the third was paused. With this timeout the
 * handshake fails after {@link #HANDSHAKE_TIMEOUT_MS} and the transport goes on.
 *
 * <p>The read timeout is set on the new socket and taken off again when its handshake completes
 * (the JDK tells a listener of that, on a thread of its own, just before the connection carries
 * anything): a connection that is up reads without a timeout, as JGroups expects. Everything else is
 * the factory WildFly configured (with its TLS context), unchanged.
 */
final class HandshakeTimeoutSockets implements SocketFactory {

    private static final Logger LOG = Logger.getLogger(HandshakeTimeoutSockets.class.getName());
    static final int HANDSHAKE_TIMEOUT_MS = 2_000;

    private final SocketFactory sockets;

    private HandshakeTimeoutSockets(SocketFactory sockets) {
        this.sockets = sockets;
    }

    /** Puts the timeout in front of {@code transport}'s socket factory (once: a redeployment finds it there). */
    static void install(TP transport) {
        SocketFactory current = transport.getSocketFactory();
        if (!current.getClass().getName().equals(HandshakeTimeoutSockets.class.getName())) {
            transport.setSocketFactory(new HandshakeTimeoutSockets(current));
        }
    }

    /** Gives {@code transport} its own factory back (the application is undeployed; the channel is WildFly's and stays). */
    static void uninstall(TP transport) {
        if (transport.getSocketFactory() instanceof HandshakeTimeoutSockets ours) {
            transport.setSocketFactory(ours.sockets);
        }
    }

    private static Socket timed(Socket socket) throws SocketException {
        if (socket instanceof SSLSocket tls) {
            tls.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
            tls.addHandshakeCompletedListener(done -> {
                try {
                    done.getSocket().setSoTimeout(0);
                } catch (SocketException e) {
                    LOG.log(Level.FINE, "a cluster connection closed as its handshake completed", e);
                }
            });
        }
        return socket;
    }

    @Override
    public Socket createSocket(String name) throws IOException {
        return timed(sockets.createSocket(name));
    }

    @Override
    public Socket createSocket(String name, String host, int port) throws IOException {
        return timed(sockets.createSocket(name, host, port));
    }

    @Override
    public Socket createSocket(String name, InetAddress address, int port) throws IOException {
        return timed(sockets.createSocket(name, address, port));
    }

    @Override
    public Socket createSocket(String name, String host, int port, InetAddress localAddress, int localPort) throws IOException {
        return timed(sockets.createSocket(name, host, port, localAddress, localPort));
    }

    @Override
    public Socket createSocket(String name, InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return timed(sockets.createSocket(name, address, port, localAddress, localPort));
    }

    @Override
    public ServerSocket createServerSocket(String name) throws IOException {
        return sockets.createServerSocket(name);
    }

    @Override
    public ServerSocket createServerSocket(String name, int port) throws IOException {
        return sockets.createServerSocket(name, port);
    }

    @Override
    public ServerSocket createServerSocket(String name, int port, int backlog) throws IOException {
        return sockets.createServerSocket(name, port, backlog);
    }

    @Override
    public ServerSocket createServerSocket(String name, int port, int backlog, InetAddress bindAddress) throws IOException {
        return sockets.createServerSocket(name, port, backlog, bindAddress);
    }

    @Override
    public java.nio.channels.SocketChannel createSocketChannel(String name) throws IOException {
        return sockets.createSocketChannel(name);
    }

    @Override
    public java.nio.channels.SocketChannel createSocketChannel(String name, SocketAddress address) throws IOException {
        return sockets.createSocketChannel(name, address);
    }

    @Override
    public java.nio.channels.ServerSocketChannel createServerSocketChannel(String name) throws IOException {
        return sockets.createServerSocketChannel(name);
    }

    @Override
    public java.nio.channels.ServerSocketChannel createServerSocketChannel(String name, int port) throws IOException {
        return sockets.createServerSocketChannel(name, port);
    }

    @Override
    public java.nio.channels.ServerSocketChannel createServerSocketChannel(String name, int port, int backlog) throws IOException {
        return sockets.createServerSocketChannel(name, port, backlog);
    }

    @Override
    public java.nio.channels.ServerSocketChannel createServerSocketChannel(String name, int port, int backlog, InetAddress bindAddress)
            throws IOException {
        return sockets.createServerSocketChannel(name, port, backlog, bindAddress);
    }

    @Override
    public DatagramSocket createDatagramSocket(String name) throws SocketException {
        return sockets.createDatagramSocket(name);
    }

    @Override
    public DatagramSocket createDatagramSocket(String name, SocketAddress bindAddress) throws SocketException {
        return sockets.createDatagramSocket(name, bindAddress);
    }

    @Override
    public DatagramSocket createDatagramSocket(String name, int port) throws SocketException {
        return sockets.createDatagramSocket(name, port);
    }

    @Override
    public DatagramSocket createDatagramSocket(String name, int port, InetAddress bindAddress) throws SocketException {
        return sockets.createDatagramSocket(name, port, bindAddress);
    }

    @Override
    public MulticastSocket createMulticastSocket(String name) throws IOException {
        return sockets.createMulticastSocket(name);
    }

    @Override
    public MulticastSocket createMulticastSocket(String name, int port) throws IOException {
        return sockets.createMulticastSocket(name, port);
    }

    @Override
    public MulticastSocket createMulticastSocket(String name, SocketAddress bindAddress) throws IOException {
        return sockets.createMulticastSocket(name, bindAddress);
    }

    @Override
    public void close(Socket socket) throws IOException {
        sockets.close(socket);
    }

    @Override
    public void close(ServerSocket socket) throws IOException {
        sockets.close(socket);
    }

    @Override
    public void close(DatagramSocket socket) {
        sockets.close(socket);
    }

    @Override
    public void close(java.nio.channels.SocketChannel channel) {
        sockets.close(channel);
    }

    @Override
    public void close(java.nio.channels.ServerSocketChannel channel) {
        sockets.close(channel);
    }
}
