package org.siebog.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class ACLMessageTest {

    private static final AID ALICE = AID.parse("alice@siebog");
    private static final AID BOB = AID.parse("bob@siebog");
    private static final AID DESK = AID.parse("desk@siebog");

    @Test
    void aReplyGoesToReplyToInTheSameConversation() {
        ACLMessage request = ACLMessage.builder(Performative.REQUEST).sender(ALICE).receiver(BOB).replyTo(DESK)
                .conversationId("c1").replyWith("r1").protocol("fipa-request").language("sl").ontology("o")
                .encoding("e").content("do it").build();
        ACLMessage reply = request.reply(Performative.AGREE).sender(BOB).build();
        assertEquals(List.of(DESK), reply.receivers());
        assertEquals("c1", reply.conversationId());
        assertEquals("r1", reply.inReplyTo());
        assertEquals("fipa-request", reply.protocol());
        assertEquals("sl", reply.language());
        assertEquals("o", reply.ontology());
        assertEquals("e", reply.encoding());
        assertNull(reply.content());
    }

    @Test
    void aReplyWithoutReplyToGoesToTheSender() {
        ACLMessage request = ACLMessage.builder(Performative.QUERY_IF).sender(ALICE).receiver(BOB).build();
        assertEquals(List.of(ALICE), request.reply(Performative.INFORM_IF).build().receivers());
    }

    @Test
    void aMessageCannotBeChangedThroughWhatBuiltIt() {
        List<AID> receivers = new ArrayList<>(List.of(BOB));
        TreeMap<String, String> props = new TreeMap<>();
        props.put("k", "v");
        ACLMessage msg = new ACLMessage(Performative.INFORM, ALICE, receivers, null, null, null, null, null, null,
                null, null, null, null, props);
        receivers.add(DESK);
        props.put("k", "changed");
        assertEquals(List.of(BOB), msg.receivers());
        assertEquals("v", msg.userProperty("k"));
        assertThrows(UnsupportedOperationException.class, () -> msg.receivers().add(DESK));
        assertThrows(UnsupportedOperationException.class, () -> msg.userProperties().put("x", "y"));
    }

    @Test
    void aMessageNeedsAPerformative() {
        assertThrows(NullPointerException.class, () -> ACLMessage.builder(null));
    }

    @Test
    void aReceiverNamedTwiceIsKeptOnceInTheOrderFirstNamed() {
        ACLMessage message = ACLMessage.builder(Performative.INFORM).receivers(List.of(BOB, ALICE, BOB, DESK, ALICE)).build();
        assertEquals(List.of(BOB, ALICE, DESK), message.receivers());
    }

    @Test
    void theEnvelopeCountsEveryCharacterButTheContent() {
        ACLMessage message = ACLMessage.builder(Performative.INFORM).sender(ALICE).receiver(BOB).replyTo(DESK)
                .content("not counted").language("l").encoding("ee").ontology("ooo").protocol("pppp")
                .conversationId("ccccc").replyWith("rrrrrr").inReplyTo("iiiiiii").userProperty("key", "value").build();
        // alice@siebog 12, bob@siebog 10, desk@siebog 11; the fields 1+2+3+4+5+6+7; key+value 8
        assertEquals(12 + 10 + 11 + 28 + 8, message.envelopeChars());
        assertEquals(10, ACLMessage.builder(Performative.INFORM).receiver(BOB).content("x".repeat(1000)).build().envelopeChars());
    }

    @Test
    void aMessageIsEstimatedAtTwoBytesACharacterPlusItsOverhead() {
        ACLMessage small = ACLMessage.builder(Performative.INFORM).receiver(BOB).build();
        ACLMessage big = ACLMessage.builder(Performative.INFORM).receiver(BOB).content("x".repeat(1000)).build();
        assertEquals(2000, big.estimatedBytes() - small.estimatedBytes());
        assertEquals(2 * small.envelopeChars() + 512, small.estimatedBytes(), "even an empty message holds a node's memory");
    }
}
