package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MailboxFullException;
import org.siebog.api.Performative;
import org.siebog.message.MessageId;

/** A leaving agent's departure holds at most its capacity, unacknowledged, and hands on what it held in arrival order. */
class DeparturesTest {

    private static final AID A = AID.parse("leaving@siebog");

    private static ACLMessage message(String content) {
        return ACLMessage.builder(Performative.INFORM).receiver(A).content(content).build();
    }

    @Test
    void atItsCapacityADepartureRefusesAsAFullMailboxAndHandsOnWhatItHeldInOrder() {
        Departures.Departure departure = new Departures.Departure(A, 2);
        CompletableFuture<Void> first = departure.admit(new MessageId("o", 1), message("1"));
        CompletableFuture<Void> second = departure.admit(new MessageId("o", 2), message("2"));
        assertThrows(MailboxFullException.class, () -> departure.admit(new MessageId("o", 3), message("3")));
        assertFalse(first.isDone(), "unacknowledged while the agent moves: its sender still holds it");

        List<String> handedOn = new ArrayList<>();
        departure.handOn(d -> {
            handedOn.add(d.message().content());
            return CompletableFuture.completedFuture(null);
        });
        assertEquals(List.of("1", "2"), handedOn, "in arrival order, the refused one not among them");
        assertTrue(first.isDone() && second.isDone(), "acknowledged once handed on");

        departure.admit(new MessageId("o", 4), message("4")).join();
        assertEquals(List.of("1", "2", "4"), handedOn, "once open, what comes goes straight on");
    }
}
