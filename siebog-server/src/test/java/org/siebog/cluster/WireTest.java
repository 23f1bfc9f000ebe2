package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentNameInUseException;
import org.siebog.api.MailboxFullException;
import org.siebog.api.Performative;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.api.UnknownAgentException;
import org.siebog.state.StateRefusedException;

class WireTest {

    @Test
    void fieldsComeBackInOrder() throws Exception {
        String big = "x".repeat(100_000); // beyond writeUTF's 64 KiB
        byte[] bytes = new Wire.Writer().string("Ping").string(null).string(big)
                .map(Map.of("pong", "pong@siebog")).integer(42).bool(true).toBytes();
        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        assertEquals("Ping", in.string());
        assertNull(in.string());
        assertEquals(big, in.string());
        assertEquals(Map.of("pong", "pong@siebog"), in.map());
        assertEquals(42, in.integer());
        assertEquals(true, in.bool());
        assertTrue(in.atEnd());
    }

    @Test
    void aTruncatedRequestIsAnErrorNotGarbage() throws Exception {
        byte[] bytes = new Wire.Writer().int64(7).string("abcdef").toBytes();
        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length - 2);
        assertEquals(7, in.int64());
        assertThrows(EOFException.class, in::string);
        // Only the given slice of the array is read.
        Wire.Reader slice = new Wire.Reader(bytes, 0, Long.BYTES);
        assertEquals(7, slice.int64());
        assertTrue(slice.atEnd());
        assertThrows(EOFException.class, slice::integer);
    }

    @Test
    void aRefusalComesBackAsItsKindStatusAndText() throws Exception {
        MailboxFullException full = new MailboxFullException(AID.parse("busy@siebog"), 50);
        UnknownAgentException unknown = new UnknownAgentException(AID.parse("nobody@siebog"));
        AgentNameInUseException taken = new AgentNameInUseException(AID.parse("taken@siebog"));
        RemoteNodeException unreachable = new RemoteNodeException("node2", "it left");
        StateRefusedException tooMany = StateRefusedException.tooManyPending(256);
        byte[] bytes = new Wire.Writer().outcome(null).outcome(full).outcome(unknown).outcome(taken).outcome(unreachable)
                .outcome(tooMany).toBytes();

        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        assertNull(in.outcome());
        // The types callers tell apart come back as themselves ...
        assertSameRefusal(MailboxFullException.class, full, in.outcome());
        assertSameRefusal(UnknownAgentException.class, unknown, in.outcome());
        SiebogException takenBack = in.outcome();
        // ... every other one as its status and words.
        assertSameRefusal(Refusal.RefusedByNodeException.class, taken, takenBack);
        assertEquals(409, takenBack.status());
        assertSameRefusal(RemoteNodeException.class, unreachable, in.outcome());
        SiebogException tooManyBack = in.outcome();
        assertEquals(429, tooManyBack.status());
        assertEquals(tooMany.getMessage(), tooManyBack.getMessage());
        assertTrue(in.atEnd());
    }

    @Test
    void aRefusalCrossesAsTextNotAsASerialisedObject() {
        byte[] bytes = new Wire.Writer().outcome(new MailboxFullException(AID.parse("busy@siebog"), 50)).toBytes();
        String asText = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(asText.contains("\u00ac\u00ed"), "no Java serialisation stream (magic AC ED)");
        assertFalse(asText.contains("MailboxFullException"), "no class name");
        assertFalse(asText.contains("java.lang"), "no class name");
    }

    @Test
    void aRefusalOfUnknownKindOrWithoutAnErrorStatusIsUnreadable() {
        byte[] unknownKind = new Wire.Writer().refusal(127, 503, "?").toBytes();
        IOException e = assertThrows(IOException.class, () -> new Wire.Reader(unknownKind, 0, unknownKind.length).outcome());
        assertTrue(e.getMessage().contains("unknown kind"), e.getMessage());
        byte[] okStatus = new Wire.Writer().refusal(0, 200, "fine").toBytes();
        e = assertThrows(IOException.class, () -> new Wire.Reader(okStatus, 0, okStatus.length).outcome());
        assertTrue(e.getMessage().contains("status"), e.getMessage());
    }

    @Test
    void aLongRefusalTextIsCut() throws Exception {
        byte[] bytes = new Wire.Writer().refusal(0, 400, "x".repeat(100_000)).toBytes();
        SiebogException back = new Wire.Reader(bytes, 0, bytes.length).outcome();
        assertEquals(400, back.status());
        assertEquals(Refusal.MAX_TEXT_CHARS + 3, back.getMessage().length());
    }

    @Test
    void anUnknownPerformativeIsAnErrorNotAnIndexOutOfBounds() {
        byte[] message = new Wire.Writer().message(ACLMessage.builder(Performative.INFORM).receiver(AID.parse("b@siebog")).build()).toBytes();
        message[0] = (byte) 99;
        assertThrows(IOException.class, () -> new Wire.Reader(message, 0, message.length).message());
    }

    private static void assertSameRefusal(Class<? extends SiebogException> type, SiebogException sent, SiebogException back) {
        assertInstanceOf(type, back);
        assertEquals(sent.getMessage(), back.getMessage());
        assertEquals(sent.status(), back.status());
    }

    @Test
    void aMessageComesBackEqual() throws Exception {
        ACLMessage full = ACLMessage.builder(Performative.REQUEST).sender(AID.parse("a@siebog"))
                .receiver(AID.parse("b@siebog")).receiver(AID.parse("c@other")).replyTo(AID.parse("d@siebog"))
                .content("héllo ☃").language("en").encoding("utf-8").ontology("o").protocol("p").conversationId("c1")
                .replyWith("r1").inReplyTo("r0").replyBy(Instant.parse("2026-11-22T07:00:00.123456789Z"))
                .userProperty("k", "v").userProperty("a", "").build();
        ACLMessage bare = ACLMessage.builder(Performative.INFORM).receiver(AID.parse("b@siebog")).build();
        byte[] bytes = new Wire.Writer().message(full).message(bare).toBytes();
        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        assertEquals(full, in.message());
        assertEquals(bare, in.message());
    }

    @Test
    void stringsAndAidsBeyondAsciiComeBackAsWritten() throws Exception {
        AID plain = AID.parse("sender-1@siebog");
        AID accented = AID.parse("agent-é@plateforme");
        AID accentedPlatform = AID.parse("agent@plateforme-é");
        byte[] bytes = new Wire.Writer().string("").string("naïve ☃ 𝄞").aid(plain).aid(accented)
                .aid(accentedPlatform).aid(null).toBytes();
        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        assertEquals("", in.string());
        assertEquals("naïve ☃ 𝄞", in.string());
        assertEquals(plain, in.aid());
        assertEquals(accented, in.aid());
        assertEquals(accentedPlatform, in.aid());
        assertNull(in.aid());
        assertTrue(in.atEnd());
    }

    @Test
    void aResetWriterWritesWhatAFreshOneWrites() {
        Wire.Writer reused = new Wire.Writer();
        byte[] fresh = new Wire.Writer().aid(AID.parse("a@siebog")).bool(true).toBytes();
        for (int grownBy : new int[] {1_000, 3_000_000}) { // past the first size, and past what a writer keeps
            reused.string("x".repeat(grownBy)).int64(1);
            assertArrayEquals(fresh, reused.reset().aid(AID.parse("a@siebog")).bool(true).toBytes());
            reused.reset();
        }
    }

    @Test
    void aMessageToManyIsWrittenOnceAndReadBackAsOneInstance() throws Exception {
        ACLMessage.Builder toAll = ACLMessage.builder(Performative.INFORM).content("start");
        for (int i = 0; i < 1_000; i++) {
            toAll.receiver(AID.parse("sender-" + i + "@siebog"));
        }
        ACLMessage broadcast = toAll.build();
        ACLMessage other = ACLMessage.builder(Performative.REQUEST).receiver(AID.parse("b@siebog")).build();
        Wire.Writer out = new Wire.Writer();
        for (int i = 0; i < 1_000; i++) {
            out.sharedMessage(broadcast);
        }
        out.sharedMessage(other).sharedMessage(broadcast);
        byte[] once = new Wire.Writer().message(broadcast).toBytes();
        byte[] bytes = out.toBytes();
        assertTrue(bytes.length < 2 * once.length, bytes.length + " bytes for one message of " + once.length);

        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        ACLMessage first = in.sharedMessage();
        assertEquals(broadcast, first);
        for (int i = 1; i < 1_000; i++) {
            assertSame(first, in.sharedMessage());
        }
        assertEquals(other, in.sharedMessage());
        assertSame(first, in.sharedMessage());
        assertTrue(in.atEnd());
    }

    @Test
    void messagesToOneReceiverAreWrittenInFullAndKeepTheReferencesAfterThemRight() throws Exception {
        ACLMessage toOne = ACLMessage.builder(Performative.REQUEST).receiver(AID.parse("b@siebog")).content("x").build();
        ACLMessage toTwo = ACLMessage.builder(Performative.INFORM).receiver(AID.parse("b@siebog")).receiver(AID.parse("c@siebog")).build();
        Wire.Writer out = new Wire.Writer();
        out.sharedMessage(toOne).sharedMessage(toOne).sharedMessage(toTwo).sharedMessage(toOne).sharedMessage(toTwo);
        byte[] bytes = out.toBytes();

        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        assertEquals(toOne, in.sharedMessage());
        assertEquals(toOne, in.sharedMessage());
        ACLMessage both = in.sharedMessage();
        assertEquals(toTwo, both);
        assertEquals(toOne, in.sharedMessage());
        assertSame(both, in.sharedMessage());
        assertTrue(in.atEnd());
    }

    @Test
    void aReferenceToAMessageNotReadIsAnError() {
        byte[] bytes = new Wire.Writer().integer(3).toBytes();
        IOException e = assertThrows(IOException.class, () -> new Wire.Reader(bytes, 0, bytes.length).sharedMessage());
        assertTrue(e.getMessage().contains("reference to message 3"), e.getMessage());
    }

    @Test
    void aResetForgetsTheMessagesWrittenBefore() throws Exception {
        ACLMessage m = ACLMessage.builder(Performative.INFORM).receiver(AID.parse("b@siebog")).build();
        Wire.Writer out = new Wire.Writer();
        out.sharedMessage(m);
        byte[] bytes = out.reset().sharedMessage(m).toBytes();
        assertEquals(m, new Wire.Reader(bytes, 0, bytes.length).sharedMessage());
    }
}
