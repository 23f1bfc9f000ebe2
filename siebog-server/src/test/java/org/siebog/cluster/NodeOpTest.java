package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MailboxFullException;
import org.siebog.api.NodeHealth;
import org.siebog.api.Performative;
import org.siebog.api.SiebogException;
import org.siebog.api.MalformedMessageException;
import org.siebog.message.MessageId;
import org.siebog.message.SniffFilter;
import org.siebog.message.SniffedMessage;
import org.siebog.platform.NodeEvent;

/** Every node operation reads back what it wrote, behind the protocol's version; unknown versions and codes are refused by name. */
class NodeOpTest {

    private static final AID A = AID.parse("a@siebog");
    private static final AID B = AID.parse("b@siebog");

    private static NodeOp roundTrip(NodeOp op) throws IOException {
        byte[] bytes = op.toBytes();
        assertEquals(NodeOp.VERSION, bytes[0], "every request starts with the protocol's version");
        assertEquals(op.code(), bytes[1], "then the operation's code");
        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        NodeOp back = NodeOp.read(in);
        assertTrue(in.atEnd(), "an operation reads exactly what it wrote");
        return back;
    }

    @Test
    void everyOperationComesBackEqual() throws IOException {
        List<NodeOp> ops = List.of(
                new NodeOp.StartAgent("Ping", "ping", Map.of("pong", "pong@siebog"), true, null),
                new NodeOp.StartAgent("Echo", "e1", Map.of(), false, "device-7"),
                new NodeOp.StopAgent(A, true),
                new NodeOp.PushToDevice("device-7", "{\"op\":\"deliver\"}"),
                new NodeOp.DeviceEvent(A, "device-7", "ack", 42, null),
                new NodeOp.Health(),
                new NodeOp.DeviceRates(),
                new NodeOp.LinkPort(),
                new NodeOp.MoveAgent(A, "node2", null, true),
                new NodeOp.MoveAgent(B, null, "d-1a2b3c4d", false),
                new NodeOp.AdoptAgent(B),
                new NodeOp.Heartbeat("node3", -4_611_686_018_427_387_904L),
                new NodeOp.Event(new NodeEvent(NodeEvent.Type.DEVICE_JOINED, "node2", 1_795_600_000_000L,
                        Map.of("device", "d-1a2b3c4d", "label", "lab PC 7", "computeUnits", "100.0"))),
                new NodeOp.Watch("node1/w-1", "node1", new SniffFilter(Set.of(A, B), Set.of("c-7")), 30_000),
                new NodeOp.Watch("node1/w-1", "node1", new SniffFilter(Set.of(), Set.of("c-7")), 0),
                new NodeOp.Sniffed("node1/w-1", new SniffedMessage("node2", 1_795_600_000_000L, B,
                        ACLMessage.builder(Performative.REQUEST).sender(A).receiver(B).conversationId("c-7").content("ping").build(), true, 3)));
        for (NodeOp op : ops) {
            assertEquals(op, roundTrip(op));
        }
    }

    @Test
    void aDeliveryKeepsItsOrderAndWritesAMessageToManyOnce() throws IOException {
        ACLMessage toBoth = ACLMessage.builder(Performative.INFORM).sender(A).receiver(A).receiver(B).content("x".repeat(10_000)).build();
        ACLMessage other = ACLMessage.builder(Performative.REQUEST).receiver(B).content("second").build();
        NodeOp.Deliver deliver = new NodeOp.Deliver("node1", 42L, List.of(
                new NodeOp.Delivery(A, new MessageId("node1/boot", 1), toBoth),
                new NodeOp.Delivery(B, new MessageId("node1/boot", 1), toBoth),
                new NodeOp.Delivery(B, new MessageId("c@siebog", 9), other)));
        byte[] bytes = deliver.toBytes();
        assertTrue(bytes.length < 10_000 * 2, "the shared message is written once: " + bytes.length + " bytes");

        NodeOp.Deliver back = (NodeOp.Deliver) roundTrip(deliver);
        assertEquals(deliver, back);
        assertSame(back.deliveries().get(0).message(), back.deliveries().get(1).message(), "read back as one instance");
    }

    @Test
    void aStatefulAgentsMessageToOneIsWrittenWithoutItsReceiverAndOriginAgain() throws IOException {
        AID sender = AID.parse("a-stateful-sender-with-a-long-name@siebog");
        AID receiver = AID.parse("a-receiver-with-a-long-name@siebog");
        ACLMessage m = ACLMessage.builder(Performative.REQUEST).sender(sender).receiver(receiver).content("ping").build();
        NodeOp.Deliver shortForm = new NodeOp.Deliver("node1", 42L, List.of(new NodeOp.Delivery(receiver, new MessageId(sender.toString(), 7), m)));
        NodeOp.Deliver longForm = new NodeOp.Deliver("node1", 42L, List.of(new NodeOp.Delivery(B, new MessageId("node1/boot", 7), m)));

        NodeOp.Deliver back = (NodeOp.Deliver) roundTrip(shortForm);
        assertEquals(shortForm, back);
        assertEquals(longForm, roundTrip(longForm), "another receiver and origin are written out");
        String written = new String(shortForm.toBytes(), StandardCharsets.ISO_8859_1);
        assertEquals(1, occurrences(written, receiver.toString()), "the receiver is written once: " + written);
        assertEquals(1, occurrences(written, sender.toString()), "the sender, also the origin, is written once: " + written);
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void anOriginNamedAsTheSenderOfAMessageWrittenBeforeIsWrittenOut() throws IOException {
        ACLMessage toBoth = ACLMessage.builder(Performative.INFORM).sender(A).receiver(A).receiver(B).build();
        NodeOp.Deliver deliver = new NodeOp.Deliver("node1", 42L, List.of(
                new NodeOp.Delivery(A, new MessageId(A.toString(), 1), toBoth),
                new NodeOp.Delivery(B, new MessageId(A.toString(), 1), toBoth)));
        assertEquals(deliver, roundTrip(deliver));
    }

    @Test
    void anOriginNamedAsTheSenderOfNoMessageReadInFullIsRefused() {
        ACLMessage toBoth = ACLMessage.builder(Performative.INFORM).sender(A).receiver(A).receiver(B).build();
        Wire.Writer afterAReference = new Wire.Writer().octet(NodeOp.VERSION).octet(1).string("node1").int64(42).integer(2)
                .delivery(A, new MessageId("node1/boot", 1), toBoth);
        afterAReference.aid(B).int64(1).integer(0).integer(-2); // the same message by reference, then "the sender's text"
        ACLMessage anonymous = ACLMessage.builder(Performative.INFORM).receiver(A).build();
        Wire.Writer withoutASender = new Wire.Writer().octet(NodeOp.VERSION).octet(1).string("node1").int64(42).integer(1).aid(A).int64(1).integer(-1)
                .message(anonymous).integer(-2);
        for (byte[] bytes : List.of(afterAReference.toBytes(), withoutASender.toBytes())) {
            IOException e = assertThrows(IOException.class, () -> NodeOp.read(new Wire.Reader(bytes, 0, bytes.length)));
            assertEquals("an origin named as the sender of a message that was not read in full", e.getMessage());
        }
    }

    @Test
    void aMessageOutsideADeliveryCannotLeaveItsReceiverOut() {
        byte[] bytes = new Wire.Writer().octet(Performative.INFORM.ordinal()).aid(A).integer(-1).toBytes();
        IOException e = assertThrows(IOException.class, () -> new Wire.Reader(bytes, 0, bytes.length).message());
        assertEquals("a message with -1 receivers", e.getMessage());
    }

    @Test
    void anotherVersionIsRefusedByName() {
        byte[] bytes = new NodeOp.StopAgent(A, false).toBytes();
        bytes[0] = 1;
        IOException e = assertThrows(IOException.class, () -> NodeOp.read(new Wire.Reader(bytes, 0, bytes.length)));
        assertEquals("node protocol version 1 (this node speaks version 5; the cluster's nodes must run one build)", e.getMessage());
    }

    @Test
    void anUnknownOperationIsRefusedByName() {
        for (int code : new int[] {0, 15, 200}) {
            byte[] bytes = new NodeOp.StopAgent(A, false).toBytes();
            bytes[1] = (byte) code;
            IOException e = assertThrows(IOException.class, () -> NodeOp.read(new Wire.Reader(bytes, 0, bytes.length)));
            assertEquals("unknown node operation " + code + " (version 5 has codes 1 to 14)", e.getMessage());
        }
    }

    @Test
    void anEventOfATypeThisNodeDoesNotKnowIsRefusedByName() {
        byte[] bytes = new Wire.Writer().octet(NodeOp.VERSION).octet(7).string("node-exploded").string("node2").int64(1).map(Map.of())
                .toBytes();
        IOException e = assertThrows(IOException.class, () -> NodeOp.read(new Wire.Reader(bytes, 0, bytes.length)));
        assertEquals("unknown event type node-exploded", e.getMessage());
    }

    @Test
    void aTruncatedOrMadeUpRequestIsAnErrorNotGarbage() {
        byte[] bytes = new NodeOp.PushToDevice("device-7", "frame").toBytes();
        assertThrows(EOFException.class, () -> NodeOp.read(new Wire.Reader(bytes, 0, bytes.length - 1)));
        assertThrows(EOFException.class, () -> NodeOp.read(new Wire.Reader(bytes, 0, 0)));
        // A delivery that claims two billion messages and holds none: read until the bytes end, nothing sized by the claim.
        byte[] claims = new Wire.Writer().octet(NodeOp.VERSION).octet(1).string("node1").int64(42).integer(Integer.MAX_VALUE).toBytes();
        assertThrows(EOFException.class, () -> NodeOp.read(new Wire.Reader(claims, 0, claims.length)));
        byte[] negative = new Wire.Writer().octet(NodeOp.VERSION).octet(1).string("node1").int64(42).integer(-1).toBytes();
        assertThrows(IOException.class, () -> NodeOp.read(new Wire.Reader(negative, 0, negative.length)));
    }

    @Test
    void aNodesFiguresComeBackEqualAndARefusalInTheirPlaceIsThrown() throws IOException {
        NodeHealth health = new NodeHealth(123_456_789, 1L << 30, 0.375, 3, 1234.5, 1200.25, 17, 65_536, 98_765);
        assertEquals(health, NodeOp.Health.read(NodeOp.Health.answer(health)));
        byte[] refused = NodeAnswer.of(new MailboxFullException(B, 50));
        assertThrows(MailboxFullException.class, () -> NodeOp.Health.read(refused));
        byte[] cut = NodeOp.Health.answer(health);
        assertThrows(EOFException.class, () -> NodeOp.Health.read(Arrays.copyOf(cut, cut.length - 1)));
    }

    @Test
    void answersCarryTheVersionToo() throws IOException {
        MailboxFullException full = new MailboxFullException(B, 50);
        byte[] answer = NodeAnswer.writer().outcome(null).outcome(full).toBytes();
        assertEquals(NodeOp.VERSION, answer[0]);
        Wire.Reader in = NodeAnswer.reader(answer);
        assertNull(in.outcome());
        SiebogException back = in.outcome();
        assertInstanceOf(MailboxFullException.class, back);
        assertEquals(full.getMessage(), back.getMessage());

        answer[0] = 9;
        IOException e = assertThrows(IOException.class, () -> NodeAnswer.reader(answer));
        assertEquals("an answer in node protocol version 9 (this node speaks version 5)", e.getMessage());
    }

    @Test
    void aWatchOfMoreAgentsThanASnifferMayWatchIsRefusedWhenRead() {
        Set<AID> many = IntStream.rangeClosed(1, SniffFilter.MAX_TERMS + 1).mapToObj(i -> AID.parse("a" + i + "@siebog"))
                .collect(Collectors.toSet());
        Wire.Writer out = new Wire.Writer().octet(NodeOp.VERSION).octet(8).string("w").string("node1").int64(30_000)
                .integer(many.size());
        many.forEach(out::aid);
        out.integer(0);
        byte[] bytes = out.toBytes();
        MalformedMessageException refused = assertThrows(MalformedMessageException.class, () -> NodeOp.read(new Wire.Reader(bytes, 0, bytes.length)));
        assertTrue(refused.getMessage().contains("at most " + SniffFilter.MAX_TERMS), refused.getMessage());
    }

    @Test
    void aHeartbeatIsAnsweredWithAVerdictAndAViewAndAnythingElseIsNoAnswer() {
        for (NodeOp.Heartbeat.Verdict verdict : NodeOp.Heartbeat.Verdict.values()) {
            NodeOp.Heartbeat.Answer answer = new NodeOp.Heartbeat.Answer(verdict, List.of("node1", "node3"), Map.of("node2", 1500L));
            assertEquals(Optional.of(answer), NodeOp.Heartbeat.Answer.read(answer.toBytes()));
        }
        assertEquals(Optional.empty(), NodeOp.Heartbeat.Answer.read(NodeAnswer.of(new org.siebog.api.RemoteNodeException("node3", "leaving"))),
                "a refusal");
        assertEquals(Optional.empty(), NodeOp.Heartbeat.Answer.read(new byte[] {(byte) NodeOp.VERSION}), "a truncated answer");
        byte[] unknownVerdict = NodeAnswer.successWriter().octet(9).integer(0).integer(0).toBytes();
        assertEquals(Optional.empty(), NodeOp.Heartbeat.Answer.read(unknownVerdict));
    }

    @Test
    void devicesRatesComeBackAsTheyWent() throws IOException {
        Map<String, Double> rates = Map.of("d-00000001", 0.0, "d-1a2b3c4d", 12.4);
        assertEquals(rates, NodeOp.DeviceRates.read(NodeOp.DeviceRates.answer(rates)));
        assertEquals(Map.of(), NodeOp.DeviceRates.read(NodeOp.DeviceRates.answer(Map.of())));
    }
}
