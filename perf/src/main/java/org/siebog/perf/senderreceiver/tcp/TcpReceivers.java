package org.siebog.perf.senderreceiver.tcp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

import org.siebog.examples.senderreceiver.Primes;
import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * JVM A of the raw TCP run ({@link TcpJvms}): listens on the loopback and gives each connection (one
 * per pair) a thread that reads a request (a length, then that many bytes), counts the primes up to
 * the run's limit, and writes the same bytes back. Prints {@code {"state":"ready"}} once it listens;
 * serves until its stdin closes.
 */
public final class TcpReceivers {

    static final String NAME = "raw TCP";
    /** Requests larger than this are refused: the benchmark's payload is at most 1 M characters. */
    static final int MAX_BYTES = 4 << 20;

    private TcpReceivers() {
    }

    public static void main(String[] args) {
        ChildMain.endWhenStdinCloses(0);
        ChildMain.reportAndExit(NAME, () -> {
            ChildArgs.Receivers parsed = ChildArgs.Receivers.fromArgs(args);
            try (ServerSocket server = new ServerSocket(parsed.port(), parsed.pairs(), InetAddress.getByName(ChildMain.LOOPBACK))) {
                ChildMain.printReady();
                while (true) {
                    Socket socket = server.accept();
                    socket.setTcpNoDelay(true);
                    Thread receiver = new Thread(() -> serve(socket, parsed.primeLimit()), "receiver");
                    receiver.setDaemon(true);
                    receiver.start();
                }
            }
        });
    }

    private static void serve(Socket socket, int primeLimit) {
        int primes = 0;
        try (socket;
                DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()))) {
            while (true) {
                byte[] request = read(in);
                if (primeLimit > 0) {
                    primes += Primes.countUpTo(primeLimit);
                }
                write(out, request);
            }
        } catch (EOFException e) {
            // The Sender is done.
        } catch (IOException e) {
            System.err.println("a Receiver's connection failed after " + primes + " prime counts: " + e);
        }
    }

    /** One frame: its length, then its bytes. */
    static byte[] read(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_BYTES) {
            throw new IOException("a frame of " + length + " bytes, past the bound of " + MAX_BYTES);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    static void write(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
    }
}
