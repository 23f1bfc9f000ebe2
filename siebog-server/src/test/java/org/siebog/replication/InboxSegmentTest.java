package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Performative;
import org.siebog.cluster.Wire;
import org.siebog.delivery.Envelope;
import org.siebog.message.MessageId;

class InboxSegmentTest {

    private static final AID A = AID.parse("a@siebog");
    private static final AID B = AID.parse("b@siebog");

    private static LoggedMessage logged(AID aid, long incarnation, long seq, String content) {
        ACLMessage message = ACLMessage.builder(Performative.INFORM).receiver(aid).content(content).build();
        return new LoggedMessage(aid, incarnation, seq, new MessageId("node1/x", seq + 100), message, 1, new CompletableFuture<>());
    }

    @Test
    void aSegmentSurvivesItsEncodingWhateverTheContent() {
        String tricky = "12:three\nlines: and a colon";
        List<SegmentCodec.Entry> back = SegmentCodec.decode(SegmentCodec.encode(List.of(logged(A, 7, 1, tricky), logged(B, -2, 5, "")), new Wire.Writer()));
        assertEquals(2, back.size());
        assertEquals(A, back.get(0).aid());
        assertEquals(7, back.get(0).incarnation());
        assertEquals(1, back.get(0).seq());
        Envelope first = back.get(0).envelope();
        assertEquals(1, first.seq());
        assertEquals(new MessageId("node1/x", 101), first.id());
        assertEquals(tricky, first.message().content());
        assertEquals(B, back.get(1).aid());
        assertEquals(-2, back.get(1).incarnation());
        assertEquals(5, back.get(1).envelope().seq());
    }

    @Test
    void aSegmentOfAnotherFormatIsRefusedByName() {
        byte[] segment = SegmentCodec.encode(List.of(logged(A, 1, 1, "x")), new Wire.Writer());
        assertEquals(SegmentCodec.FORMAT, segment[0], "a segment starts with its format's version");
        segment[0] = 7;
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> SegmentCodec.decode(segment));
        assertEquals("inbox segment format 7 (this node reads format 2)", e.getCause().getMessage());
    }

    @Test
    void aMessageToSeveralAgentsIsStoredOncePerSegment() {
        ACLMessage toBoth = ACLMessage.builder(Performative.INFORM).receiver(A).receiver(B).content("start").build();
        MessageId id = new MessageId("node1/x", 7);
        List<LoggedMessage> batch = List.of(new LoggedMessage(A, 1, 3, id, toBoth, 1, new CompletableFuture<>()),
                new LoggedMessage(B, 1, 9, id, toBoth, 1, new CompletableFuture<>()));
        List<SegmentCodec.Entry> back = SegmentCodec.decode(SegmentCodec.encode(batch, new Wire.Writer()));
        assertEquals(List.of(A, B), back.stream().map(SegmentCodec.Entry::aid).toList());
        assertEquals(toBoth, back.get(0).message());
        assertSame(back.get(0).message(), back.get(1).message());
        assertEquals(9, back.get(1).seq());
    }

    @Test
    void aSegmentIsReleasedWhenItsLastMessageIsCovered() {
        InboxSegment segment = new InboxSegment("node1/boot", 1, 2, 100);
        assertEquals("node1/boot#1", segment.key());
        assertFalse(segment.release());
        assertTrue(segment.release());
    }

    @Test
    void theWriterAndNodeOfAnEntryAreInItsKey() {
        assertEquals("node-2/0b7c", LogKeys.writerOf("node-2/0b7c#12"));
        assertEquals("node-2", LogKeys.nodeOf("node-2/0b7c#12"));
        assertEquals("node-2", LogKeys.nodeOf(LogKeys.manifest("node-2/0b7c")));
        assertTrue(LogKeys.isManifest(LogKeys.manifest("node-2/0b7c")));
        assertFalse(LogKeys.isManifest(LogKeys.segment("node-2/0b7c", 3)));
    }
}
