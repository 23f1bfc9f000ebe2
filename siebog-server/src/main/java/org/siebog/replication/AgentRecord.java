package org.siebog.replication;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.siebog.delivery.ReceiverCounters;

/**
 * What the {@code agent-state} cache keeps of a stateful agent: its state after handling inbox
 * positions up to {@code handledSeq}, the identities of the messages that state has handled, and how many
 * messages it has sent to each receiver it holds a counter for, in the order that decides which is
 * dropped next, with the floor the others are numbered on from (so a replayed handler sends under
 * the same identities, {@link ReceiverCounters}).
 * {@code incarnation} tells this agent's logged messages from those of an earlier agent of the
 * same name (inbox positions start again at 1 for each). {@code ranges} say where in the inbox log
 * the messages after {@code handledSeq} are, so a takeover reads those segments only.
 * {@code openQuestions} are the {@code replyWith}s of the agent's questions that were open when its
 * state was saved: their stages die with the node, so the agent that carries on is told so.
 */
public record AgentRecord(byte[] state, long handledSeq, Map<String, DedupWindow> handled, ReceiverCounters.Saved sent,
        long incarnation, List<LogRange> ranges, List<String> openQuestions) {

    /** A record of an agent with no question open. */
    public AgentRecord(byte[] state, long handledSeq, Map<String, DedupWindow> handled, ReceiverCounters.Saved sent,
            long incarnation, List<LogRange> ranges) {
        this(state, handledSeq, handled, sent, incarnation, ranges, List.of());
    }

    AgentRecord withRanges(List<LogRange> newRanges) {
        return new AgentRecord(state, handledSeq, handled, sent, incarnation, newRanges, openQuestions);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(state.length + 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(state.length);
            out.write(state);
            out.writeLong(handledSeq);
            out.writeInt(handled.size());
            for (Map.Entry<String, DedupWindow> e : handled.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue().low());
                out.writeLong(e.getValue().heardAt());
                List<DedupWindow.Run> runs = e.getValue().runs();
                out.writeInt(runs.size());
                for (DedupWindow.Run run : runs) {
                    out.writeLong(run.first());
                    out.writeLong(run.last());
                }
            }
            out.writeInt(sent.entries().size());
            for (Map.Entry<String, Long> e : sent.entries().entrySet()) { // least recently sent to first
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeLong(sent.floor());
            out.writeLong(incarnation);
            out.writeInt(ranges.size());
            for (LogRange r : ranges) {
                out.writeUTF(r.writer());
                out.writeLong(r.fromSegment());
                out.writeLong(r.lastSeq());
            }
            out.writeInt(openQuestions.size());
            for (String replyWith : openQuestions) {
                out.writeUTF(replyWith);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static AgentRecord decode(byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            byte[] state = in.readNBytes(in.readInt());
            long handledSeq = in.readLong();
            Map<String, DedupWindow> handled = new HashMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                String origin = in.readUTF();
                long low = in.readLong();
                long heardAt = in.readLong();
                List<DedupWindow.Run> runs = new ArrayList<>();
                for (int j = in.readInt(); j > 0; j--) {
                    runs.add(new DedupWindow.Run(in.readLong(), in.readLong()));
                }
                handled.put(origin, new DedupWindow(low, runs, heardAt));
            }
            Map<String, Long> counters = new LinkedHashMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                counters.put(in.readUTF(), in.readLong());
            }
            ReceiverCounters.Saved sent = new ReceiverCounters.Saved(counters, in.readLong());
            long incarnation = in.readLong();
            List<LogRange> ranges = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                ranges.add(new LogRange(in.readUTF(), in.readLong(), in.readLong()));
            }
            List<String> openQuestions = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                openQuestions.add(in.readUTF());
            }
            return new AgentRecord(state, handledSeq, handled, sent, incarnation, ranges, openQuestions);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable agent record", e);
        }
    }
}
