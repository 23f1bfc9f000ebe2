package org.siebog.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.Performative;

/** What a sniffer's filter lets through, what it refuses to watch, and how large a copy may be. */
class SniffFilterTest {

    private static final AID PING = AID.parse("ping@siebog");
    private static final AID PONG = AID.parse("pong@siebog");
    private static final AID OTHER = AID.parse("other@siebog");

    private static ACLMessage from(AID sender, String conversation) {
        return ACLMessage.builder(Performative.INFORM).sender(sender).receiver(OTHER).conversationId(conversation).build();
    }

    @Test
    void aMessageMatchesByItsReceiverItsSenderOrItsConversation() {
        SniffFilter filter = new SniffFilter(Set.of(PING), Set.of("c-1"));
        assertTrue(filter.matches(PING, from(OTHER, null)), "to a watched agent");
        assertTrue(filter.matches(OTHER, from(PING, null)), "from a watched agent");
        assertTrue(filter.matches(OTHER, from(OTHER, "c-1")), "in a watched conversation");
        assertFalse(filter.matches(OTHER, from(PONG, "c-2")), "none of these");
        assertFalse(filter.matches(OTHER, from(null, null)), "posted from outside, to an agent not watched");
    }

    @Test
    void aFilterWatchesSomethingButNotTooMuch() {
        MalformedMessageException nothing = assertThrows(MalformedMessageException.class, () -> new SniffFilter(Set.of(), Set.of()));
        assertEquals("a sniffer needs at least one agent or conversation to watch", nothing.getMessage());
        Set<AID> many = IntStream.rangeClosed(0, SniffFilter.MAX_TERMS).mapToObj(i -> AID.parse("a" + i)).collect(Collectors.toSet());
        assertThrows(MalformedMessageException.class, () -> new SniffFilter(many, Set.of()));
        Set<String> conversations = IntStream.rangeClosed(0, SniffFilter.MAX_TERMS).mapToObj(i -> "c" + i).collect(Collectors.toSet());
        assertThrows(MalformedMessageException.class, () -> new SniffFilter(Set.of(), conversations));
    }

    @Test
    void aSmallMessageIsCopiedByReferenceALargeOneCutShort() {
        ACLMessage small = from(PING, "c-1");
        assertSame(small, new SniffedMessage("node1", 0, OTHER, small, false, 0).message());

        ACLMessage large = ACLMessage.builder(Performative.INFORM).sender(PING).receiver(OTHER).conversationId("c-1")
                .ontology("o".repeat(10_000)).userProperty("k", "v".repeat(10_000)).content("x".repeat(1_000_000)).build();
        ACLMessage copy = new SniffedMessage("node1", 0, OTHER, large, false, 0).message();
        assertTrue(copy.content().startsWith("x".repeat(SniffedMessage.MAX_CONTENT_CHARS) + "… (1000000 characters)"), "the content cut, its length said");
        assertTrue(copy.content().length() < SniffedMessage.MAX_CONTENT_CHARS + 40);
        assertTrue(copy.ontology().endsWith("… (10000 characters)") && copy.ontology().length() < 600, copy.ontology());
        assertTrue(copy.userProperties().isEmpty());
        assertEquals("c-1", copy.conversationId());
        assertEquals(PING, copy.sender());
        assertTrue(copy.estimatedBytes() < 16_384, "a copy a node keeps is small: " + copy.estimatedBytes());
    }
}
