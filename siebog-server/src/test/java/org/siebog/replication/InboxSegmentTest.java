package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.siebog.agent.AID;
import org.siebog.delivery.Envelope;
import org.siebog.message.ACLMessage;
import org.siebog.message.MessageId;
import org.siebog.message.Performative;

class InboxSegmentTest {

    private static final AID A = AID.parse("a@siebog");
    private static final AID B = AID.parse("b@siebog");

    private static LoggedMessage logged(AID aid, long incarnation, long seq, String content) {
        ACLMessage message = ACLMessage.builder(Performative.INFORM).receiver(aid).content(content).build();
        return new LoggedMessage(aid, incarnation, seq, new MessageId("node1/x", seq + 100), message, new CompletableFuture<>());
    }

    @Test
    void aSegmentSurvivesItsEncodingWhateverTheContent() {
        String tricky = "12:three\nlines: and a colon";
        List<SegmentCodec.Entry> back = SegmentCodec.decode(SegmentCodec.encode(List.of(logged(A, 7, 1, tricky), logged(B, -2, 5, ""))));
        assertEquals(2, back.size());
        assertEquals(A, back.get(0).aid());
        assertEquals(7, back.get(0).incarnation());
        Envelope first = back.get(0).envelope();
        assertEquals(1, first.seq());
        assertEquals(new MessageId("node1/x", 101), first.id());
        assertEquals(tricky, first.message().content());
        assertEquals(B, back.get(1).aid());
        assertEquals(-2, back.get(1).incarnation());
        assertEquals(5, back.get(1).envelope().seq());
    }

    @Test
    void pendingMessagesAreThoseAfterTheSavedPositionOfTheSameIncarnationUpToTheFirstGap() {
        String s1 = SegmentCodec.encode(List.of(logged(A, 7, 3, "3"), logged(A, 7, 4, "4"), logged(B, 1, 1, "b")));
        String s2 = SegmentCodec.encode(List.of(logged(A, 7, 5, "5"), logged(A, 7, 7, "7"), logged(A, 8, 6, "other agent")));
        InboxSnapshot snapshot = new InboxSnapshot(List.of(s2, s1));
        List<Envelope> pending = snapshot.pending(A, 7, 3);
        assertEquals(List.of(4L, 5L), pending.stream().map(Envelope::seq).toList());
        assertEquals(List.of(), snapshot.pending(A, 9, 0).stream().map(Envelope::seq).toList());
        assertEquals(1, snapshot.pending(B, 1, 0).size());
    }

    @Test
    void aSegmentIsReleasedWhenItsLastMessageIsCovered() {
        InboxSegment segment = new InboxSegment("node1/boot#1", 2);
        assertFalse(segment.release());
        assertTrue(segment.release());
    }

    @Test
    void theWriterOfASegmentIsInItsKey() {
        assertEquals("node-2", ReplicationLog.writerOf("node-2/0b7c#12"));
    }
}
