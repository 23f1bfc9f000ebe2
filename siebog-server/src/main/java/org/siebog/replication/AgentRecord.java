package org.siebog.replication;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the {@code agent-state} cache keeps of a stateful agent: its state after handling inbox
 * positions up to {@code handledSeq}, which message identities it has admitted, and how many
 * messages it has sent to each receiver (so a replayed handler sends under the same identities).
 * {@code incarnation} tells this agent's logged messages from those of an earlier agent of the
 * same name (inbox positions start again at 1 for each). {@code ranges} say where in the inbox log
 * the messages after {@code handledSeq} are, so a takeover reads those segments only.
 */
public record AgentRecord(byte[] state, long handledSeq, Map<String, DedupWindow> admitted, Map<String, Long> sent,
        long incarnation, List<LogRange> ranges) {

    AgentRecord withRanges(List<LogRange> newRanges) {
        return new AgentRecord(state, handledSeq, admitted, sent, incarnation, newRanges);
    }

    String encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(state.length + 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(state.length);
            out.write(state);
            out.writeLong(handledSeq);
            out.writeInt(admitted.size());
            for (Map.Entry<String, DedupWindow> e : admitted.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue().low());
                out.writeInt(e.getValue().above().size());
                for (long counter : e.getValue().above()) {
                    out.writeLong(counter);
                }
            }
            out.writeInt(sent.size());
            for (Map.Entry<String, Long> e : sent.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeLong(incarnation);
            out.writeInt(ranges.size());
            for (LogRange r : ranges) {
                out.writeUTF(r.writer());
                out.writeLong(r.fromSegment());
                out.writeLong(r.lastSeq());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    static AgentRecord decode(String encoded) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(encoded)))) {
            byte[] state = in.readNBytes(in.readInt());
            long handledSeq = in.readLong();
            Map<String, DedupWindow> admitted = new HashMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                String origin = in.readUTF();
                long low = in.readLong();
                List<Long> above = new ArrayList<>();
                for (int j = in.readInt(); j > 0; j--) {
                    above.add(in.readLong());
                }
                admitted.put(origin, new DedupWindow(low, above));
            }
            Map<String, Long> sent = new HashMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                sent.put(in.readUTF(), in.readLong());
            }
            long incarnation = in.readLong();
            List<LogRange> ranges = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                ranges.add(new LogRange(in.readUTF(), in.readLong(), in.readLong()));
            }
            return new AgentRecord(state, handledSeq, admitted, sent, incarnation, ranges);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable agent record", e);
        }
    }
}
