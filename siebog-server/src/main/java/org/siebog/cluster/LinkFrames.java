package org.siebog.cluster;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

/**
 * How requests and answers travel on a link between two nodes ({@link LinkConnection} to
 * {@link LinkServer}), inside its TLS connection: first the connecting node's hello (the protocol's
 * {@link NodeOp#VERSION} and its name), then frames both ways, each its length, the request's id
 * (an answer carries its request's) and the bytes of a {@link NodeOp} or a {@link NodeAnswer}.
 * Answers may come in another order than their requests: a batch is answered once all of its
 * messages are logged.
 */
final class LinkFrames {

    /**
     * Far above a batch ({@code NodeLink}: about a megabyte, or one message of up to a few), so only a
     * garbled length is refused, before anything is allocated for it.
     */
    static final int MAX_BYTES = 32 << 20;

    /** What a link buffers each way in the JVM: a frame of ordinary messages goes out in one write. */
    private static final int BUFFER_BYTES = 64 << 10;

    private LinkFrames() {
    }

    /** {@code socket}'s frames in, buffered. */
    static DataInputStream in(Socket socket) throws IOException {
        return new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES));
    }

    /** {@code socket}'s frames out, buffered: sent by {@link #write} or a flush. */
    static DataOutputStream out(Socket socket) throws IOException {
        return new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES));
    }

    record Frame(long id, byte[] bytes) {
    }

    static void hello(DataOutputStream out, String node) throws IOException {
        out.writeByte(NodeOp.VERSION);
        out.writeUTF(node);
        out.flush();
    }

    /** The connecting node's name; another protocol version is an {@link IOException} that names it. */
    static String hello(DataInputStream in) throws IOException {
        int version = in.readUnsignedByte();
        if (version != NodeOp.VERSION) {
            throw new IOException("a link in node protocol version " + version + " (this node speaks version " + NodeOp.VERSION + ")");
        }
        return in.readUTF();
    }

    /** Writes one frame and sends it at once. */
    static void write(DataOutputStream out, long id, byte[] bytes) throws IOException {
        append(out, id, bytes);
        out.flush();
    }

    /** Writes one frame into {@code out}'s buffer: sent with the next flush. */
    static void append(DataOutputStream out, long id, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.writeLong(id);
        out.write(bytes);
    }

    static Frame read(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_BYTES) {
            throw new IOException("a frame of " + length + " bytes (at most " + MAX_BYTES + ")");
        }
        long id = in.readLong();
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new Frame(id, bytes);
    }
}
