package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Performative;
import org.siebog.cluster.Wire;
import org.siebog.delivery.Envelope;
import org.siebog.delivery.ReceiverCounters;
import org.siebog.message.MessageId;

class LogReaderTest {

    private static final AID A = AID.parse("a@siebog");
    private static final AID B = AID.parse("b@siebog");
    private static final String DEAD = "node1/boot1";
    private static final String EARLIER = "node3/boot0";
    private static final String LIVE = "node2/boot2";

    /** The inbox cache: key to stored bytes. */
    private final Map<String, byte[]> inbox = new HashMap<>();
    /** Every key the reader asked for. */
    private final List<String> asked = new ArrayList<>();
    private final LogReader reader = new LogReader(keys -> {
        asked.addAll(keys);
        Map<String, byte[]> found = new HashMap<>();
        keys.forEach(k -> {
            if (inbox.containsKey(k)) {
                found.put(k, inbox.get(k));
            }
        });
        return found;
    });

    private static LoggedMessage logged(AID aid, long incarnation, long seq, long counter) {
        ACLMessage message = ACLMessage.builder(Performative.INFORM).receiver(aid).content("m" + seq).build();
        return new LoggedMessage(aid, incarnation, seq, new MessageId("sender/x", counter), message, 1, new CompletableFuture<>());
    }

    private void segment(String writer, long number, LoggedMessage... messages) {
        inbox.put(LogKeys.segment(writer, number), SegmentCodec.encode(List.of(messages), new Wire.Writer()));
    }

    private void manifest(String writer, long next, Long... live) {
        inbox.put(LogKeys.manifest(writer), WriterManifest.before(next, new TreeSet<>(List.of(live))).encode());
    }

    private static AgentRecord record(long handledSeq, long incarnation, LogRange... ranges) {
        return new AgentRecord(new byte[0], handledSeq, Map.of(), ReceiverCounters.Saved.NONE, incarnation, List.of(ranges));
    }

    private static List<Long> seqs(List<Envelope> pending) {
        return pending.stream().map(Envelope::seq).toList();
    }

    @Test
    void anAgentReplaysItsMessagesAfterTheSavedPositionInOrderAcrossAGap() {
        manifest(DEAD, 1);
        segment(DEAD, 1, logged(A, 7, 3, 3), logged(A, 7, 4, 4), logged(B, 1, 1, 1));
        // 6 is another incarnation's: position 6 of incarnation 7 was never stored (its write failed)
        segment(DEAD, 2, logged(A, 7, 7, 7), logged(A, 7, 5, 5), logged(A, 8, 6, 6));
        assertEquals(List.of(4L, 5L, 7L), seqs(reader.pending(A, record(3, 7, LogRange.open(DEAD, 1)))));
        assertEquals(List.of(), seqs(reader.pending(A, record(0, 9, LogRange.open(DEAD, 1)))));
        assertEquals(List.of(1L), seqs(reader.pending(B, record(0, 1, LogRange.open(DEAD, 1)))));
        assertEquals("m4", reader.pending(A, record(3, 7, LogRange.open(DEAD, 1))).get(0).message().content());
    }

    @Test
    void onlyTheSegmentsTheRecordNamesAreRead() {
        manifest(DEAD, 1);
        manifest(LIVE, 1);
        segment(DEAD, 1, logged(A, 7, 1, 1));
        segment(DEAD, 2, logged(A, 7, 2, 2));
        segment(LIVE, 1, logged(B, 1, 1, 1));
        assertEquals(List.of(2L), seqs(reader.pending(A, record(1, 7, LogRange.open(DEAD, 2)))));
        assertTrue(asked.stream().noneMatch(k -> k.startsWith(LIVE)), asked.toString());
    }

    @Test
    void segmentsAreFoundFromTheManifestsLiveRunsAndReservation() {
        // Written up to 200 when the manifest was stored, 150 still live then; 201 written after it.
        manifest(DEAD, 201, 150L);
        segment(DEAD, 150, logged(A, 7, 1, 1));
        segment(DEAD, 201, logged(A, 7, 2, 2));
        segment(DEAD, 10_000, logged(A, 7, 3, 3)); // past the reservation: no writer stores it
        assertEquals(List.of(1L, 2L), seqs(reader.pending(A, record(0, 7, LogRange.open(DEAD, 1)))));
        assertTrue(!asked.contains(LogKeys.segment(DEAD, 100)), "100 was not live: " + asked);
    }

    @Test
    void blocksAreFetchedOnceForAllTakeovers() {
        manifest(DEAD, 1);
        segment(DEAD, 1, logged(A, 7, 1, 1), logged(B, 2, 1, 1));
        reader.pending(A, record(0, 7, LogRange.open(DEAD, 1)));
        int afterFirst = asked.size();
        assertEquals(List.of(1L), seqs(reader.pending(B, record(0, 2, LogRange.open(DEAD, 1)))));
        assertEquals(afterFirst, asked.size());
    }

    @Test
    void aWriterWithoutManifestHoldsNothing() {
        segment(DEAD, 1, logged(A, 7, 1, 1));
        assertEquals(List.of(), reader.pending(A, record(0, 7, LogRange.open(DEAD, 1))));
        assertEquals(Set.of(LogKeys.manifest(DEAD)), Set.copyOf(asked));
    }

    @Test
    void anInheritedRangeEndsAtWhatWasReplayedFromIt() {
        // node3 logged 1..3 but 2 never got written; node1 resumed from 0, replayed 1 and logged 2, 3 itself.
        manifest(EARLIER, 1);
        manifest(DEAD, 1);
        segment(EARLIER, 1, logged(A, 7, 1, 1), logged(A, 7, 3, 30));
        segment(DEAD, 1, logged(A, 7, 2, 20), logged(A, 7, 3, 31));
        List<Envelope> pending = reader.pending(A, record(0, 7, new LogRange(EARLIER, 1, 1), LogRange.open(DEAD, 1)));
        assertEquals(List.of(1L, 2L, 3L), seqs(pending));
        assertEquals(new MessageId("sender/x", 31), pending.get(2).id());
    }

    @Test
    void aMessageLoggedTwiceIsReplayedOnce() {
        manifest(DEAD, 1);
        segment(DEAD, 1, logged(A, 7, 1, 5), logged(A, 7, 2, 5), logged(A, 7, 3, 6));
        assertEquals(List.of(1L, 3L), seqs(reader.pending(A, record(0, 7, LogRange.open(DEAD, 1)))));
    }
}
