package org.siebog.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.cluster.NodeOp;
import org.siebog.cluster.Wire;
import org.siebog.delivery.Envelope;
import org.siebog.message.MessageId;

/**
 * The stored form of an {@link InboxSegment}: per message its agent, the agent's incarnation, its
 * inbox position, its identity and the message, in the binary form messages take between nodes
 * ({@link Wire}); a message to several agents of the node is written once per segment. Segments
 * are read only by nodes of the same build, after a crash; writing every admitted message as JSON
 * instead was the largest single cost of a busy stateful agent's node. The stored format has a
 * version of its own ({@link #FORMAT}, the segment's first byte), apart from the node protocol's:
 * what is stored and what crosses the network change for different reasons.
 */
final class SegmentCodec {

    /** The stored format's version; raised whenever what a segment holds per message changes. */
    static final int FORMAT = 2;

    /** One message read back from a segment. */
    record Entry(AID aid, long incarnation, long seq, MessageId id, ACLMessage message) {

        Envelope envelope() {
            return new Envelope(id, seq, message);
        }
    }

    private SegmentCodec() {
    }

    /** @param out a writer the caller keeps from segment to segment, emptied here */
    static byte[] encode(List<LoggedMessage> messages, Wire.Writer out) {
        out.reset().octet(FORMAT);
        for (LoggedMessage m : messages) {
            out.int64(m.incarnation()).int64(m.seq()).delivery(m.aid(), m.id(), m.message());
        }
        return out.toBytes();
    }

    static List<Entry> decode(byte[] segment) {
        List<Entry> entries = new ArrayList<>();
        Wire.Reader in = new Wire.Reader(segment, 0, segment.length);
        try {
            int format = in.octet();
            if (format != FORMAT) {
                throw new IOException("inbox segment format " + format + " (this node reads format " + FORMAT + ")");
            }
            while (!in.atEnd()) {
                long incarnation = in.int64();
                long seq = in.int64();
                NodeOp.Delivery d = in.delivery();
                entries.add(new Entry(d.receiver(), incarnation, seq, d.id(), d.message()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable inbox segment", e);
        }
        return entries;
    }
}
