package org.siebog.cluster;

import java.io.IOException;

import org.siebog.api.SiebogException;

/**
 * What a node answers to a {@link NodeOp}: the protocol's version, then outcomes
 * ({@link Wire.Writer#outcome(SiebogException)}: success, or a refusal as its kind, status and
 * text): one per message of a {@link NodeOp.Deliver}, one for any other operation.
 */
public final class NodeAnswer {

    private NodeAnswer() {
    }

    /** A writer with the version written: add one outcome per answered message. */
    public static Wire.Writer writer() {
        return new Wire.Writer().octet(NodeOp.VERSION);
    }

    /** An answer of one outcome: null for success, or the refusal. */
    public static byte[] of(SiebogException refusal) {
        return writer().outcome(refusal).toBytes();
    }

    /** A writer with the version and a success written: add the answer's values. */
    public static Wire.Writer successWriter() {
        return writer().outcome(null);
    }

    /**
     * Reads an answer of one outcome that carries values after a success ({@link #successWriter()}):
     * throws the refusal in its place, else returns the reader at the values.
     */
    public static Wire.Reader afterSuccess(byte[] answer) throws IOException {
        Wire.Reader in = reader(answer);
        SiebogException refusal = in.outcome();
        if (refusal != null) {
            throw refusal;
        }
        return in;
    }

    /** Reads an answer's outcomes, after its version, which must be this node's. */
    public static Wire.Reader reader(byte[] answer) throws IOException {
        Wire.Reader in = new Wire.Reader(answer, 0, answer.length);
        int version = in.octet();
        if (version != NodeOp.VERSION) {
            throw new IOException("an answer in node protocol version " + version + " (this node speaks version " + NodeOp.VERSION + ")");
        }
        return in;
    }
}
