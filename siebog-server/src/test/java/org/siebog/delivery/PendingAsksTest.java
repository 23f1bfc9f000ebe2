package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.NoReplyException;
import org.siebog.api.Performative;

class PendingAsksTest {

    private final List<String> cleanedUp = new ArrayList<>();
    private final PendingAsks asks = new PendingAsks(2);

    @Test
    void anAnswerEndsItsQuestionOnceWhateverComesAfter() throws Exception {
        CompletableFuture<ACLMessage> answer = asks.open("q", () -> cleanedUp.add("q"));
        assertFalse(asks.answer(reply(null)), "a message in reply to nothing is no answer");
        assertFalse(asks.answer(reply("other")));
        ACLMessage first = reply("q");
        assertTrue(asks.answer(first));
        assertSame(first, answer.get());
        assertFalse(asks.answer(reply("q")), "a second answer is an ordinary message");
        asks.fail("q", new IllegalStateException("too late"));
        assertEquals(List.of("q"), cleanedUp, "cleaned up once");
        assertFalse(asks.awaits("q"));
    }

    @Test
    void aFailureEndsTheQuestionAndItsLateAnswerIsAnOrdinaryMessage() {
        CompletableFuture<ACLMessage> answer = asks.open("q", () -> cleanedUp.add("q"));
        asks.fail("q", new NoReplyException(List.of(AID.parse("b@siebog")), java.time.Duration.ofMillis(5)));
        ExecutionException failed = assertThrows(ExecutionException.class, answer::get);
        assertTrue(failed.getCause() instanceof NoReplyException);
        assertFalse(asks.answer(reply("q")));
        assertEquals(List.of("q"), cleanedUp);
    }

    @Test
    void boundedAndNoTwoQuestionsShareAReplyWith() {
        asks.open("a", () -> cleanedUp.add("a"));
        assertThrows(MalformedMessageException.class, () -> asks.open("a", () -> { }));
        asks.open("b", () -> cleanedUp.add("b"));
        PendingAsks.AsksFullException full = assertThrows(PendingAsks.AsksFullException.class, () -> asks.open("c", () -> { }));
        assertEquals(503, full.status());
        assertTrue(full.getMessage().contains("siebog.agent.max-pending-asks"), full.getMessage());
        asks.withdraw("a");
        asks.open("c", () -> { });
        assertEquals(2, asks.size());
    }

    @Test
    void droppedQuestionsAreCleanedUpAndNeverComplete() {
        CompletableFuture<ACLMessage> a = asks.open("a", () -> cleanedUp.add("a"));
        CompletableFuture<ACLMessage> b = asks.open("b", () -> cleanedUp.add("b"));
        asks.dropAll();
        assertEquals(List.of("a", "b"), cleanedUp.stream().sorted().toList());
        assertFalse(a.isDone() || b.isDone());
        assertEquals(0, asks.size());
    }

    private static ACLMessage reply(String inReplyTo) {
        return ACLMessage.builder(Performative.INFORM).receiver(AID.parse("a@siebog")).inReplyTo(inReplyTo).build();
    }
}
