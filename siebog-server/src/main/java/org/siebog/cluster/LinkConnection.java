package org.siebog.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One connection of a {@link NodeLink} to the other node's {@link LinkServer}: its requests go out
 * on the thread that writes them, its answers come back on a thread of the connection's own, which
 * hands each to the link and, when the connection ends, tells the link once.
 */
final class LinkConnection {

    private static final Logger LOG = Logger.getLogger(LinkConnection.class.getName());

    /** What the link hears from its connection. */
    interface Listener {
        void answered(long id, byte[] answer);

        /** The connection ended (read or written to its end, or closed): whatever it had not answered, it never will. */
        void ended(LinkConnection connection);
    }

    private final Socket socket;
    private final DataOutputStream out;
    private final Listener listener;
    private volatile boolean open = true;

    private LinkConnection(Socket socket, Listener listener) throws IOException {
        this.socket = socket;
        this.out = LinkFrames.out(socket);
        this.listener = listener;
    }

    /** Says hello as {@code from} on {@code socket} (connected, its TLS handshake done) and starts reading answers. */
    static LinkConnection open(Socket socket, String from, Listener listener, ThreadFactory threads, String toward) throws IOException {
        LinkConnection connection = new LinkConnection(socket, listener);
        LinkFrames.hello(connection.out, from);
        DataInputStream in = LinkFrames.in(socket);
        Thread reader = threads.newThread(() -> connection.readAnswers(in));
        reader.setName("siebog-link-answers-" + toward);
        reader.setDaemon(true);
        reader.start();
        return connection;
    }

    boolean isOpen() {
        return open;
    }

    /** Writes one request; a failure ends the connection (and is thrown). Only one thread at a time (the link's lock). */
    void write(long id, byte[] request) throws IOException {
        try {
            LinkFrames.write(out, id, request);
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    /** Ends the connection; a write waiting on it (the other node is paused) fails at once. */
    void close() {
        if (open) {
            open = false;
            try {
                socket.close();
            } catch (IOException e) {
                LOG.log(Level.FINE, "closing a link", e);
            }
        }
    }

    private void readAnswers(DataInputStream in) {
        try {
            while (true) {
                LinkFrames.Frame frame = LinkFrames.read(in);
                listener.answered(frame.id(), frame.bytes());
            }
        } catch (IOException | RuntimeException e) {
            if (open) {
                LOG.log(Level.FINE, "a link ended: " + e);
            }
        } finally {
            close();
            listener.ended(this);
        }
    }
}
