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

    @Test
    void aGatheringEndsWhenEveryReceiverGaveAFinalAnswerPastTheirAgrees() throws Exception {
        CompletableFuture<List<ACLMessage>> all = asks.gather("g", 2, late -> false, () -> cleanedUp.add("g"));
        ACLMessage agree = answer(Performative.AGREE, "g", "b");
        ACLMessage refuse = answer(Performative.REFUSE, "g", "c");
        ACLMessage inform = answer(Performative.INFORM, "g", "b");
        assertTrue(asks.answer(agree));
        assertTrue(asks.answer(refuse));
        assertFalse(all.isDone(), "an AGREE promises a final answer");
        assertTrue(asks.answer(inform));
        assertEquals(List.of(agree, refuse, inform), all.get());
        assertEquals(List.of("g"), cleanedUp);
        assertFalse(asks.answer(answer(Performative.INFORM, "g", "c")), "after the end, an ordinary message");
    }

    @Test
    void aGatheringThatTimesOutEndsWithWhatCameAndOffersItsLateAnswers() throws Exception {
        List<ACLMessage> taken = new ArrayList<>();
        CompletableFuture<List<ACLMessage>> all = asks.gather("g", 3, late -> late.performative() == Performative.PROPOSE && taken.add(late),
                () -> cleanedUp.add("g"));
        ACLMessage early = answer(Performative.PROPOSE, "g", "b");
        asks.answer(early);
        asks.fail("g", new NoReplyException(List.of(AID.parse("b@siebog")), java.time.Duration.ofMillis(5)));
        assertEquals(List.of(early), all.get(), "a timeout is no failure: the answers that came");
        ACLMessage lateProposal = answer(Performative.PROPOSE, "g", "c");
        assertTrue(asks.answer(lateProposal), "taken by the late-answer rule");
        assertEquals(List.of(lateProposal), taken);
        assertFalse(asks.answer(answer(Performative.REFUSE, "g", "d")), "one the rule leaves reaches the agent");
        assertEquals(0, asks.size(), "a timed-out gathering holds no slot of the open questions");
    }

    @Test
    void lateAnswersAreTakenOnlyForAWhileAndForAsManyGatheringsAsTheAgentMayAsk() {
        PendingAsks brief = new PendingAsks(2, java.time.Duration.ZERO);
        brief.gather("g", 1, late -> true, () -> { });
        brief.fail("g", new NoReplyException(List.of(), java.time.Duration.ofMillis(1)));
        assertFalse(brief.answer(answer(Performative.PROPOSE, "g", "b")), "remembered for no time");

        for (String id : List.of("a", "b", "c")) {
            asks.gather(id, 1, late -> true, () -> { });
            asks.fail(id, new NoReplyException(List.of(), java.time.Duration.ofMillis(1)));
        }
        assertFalse(asks.answer(answer(Performative.PROPOSE, "a", "x")), "the oldest forgotten beyond the bound (2)");
        assertTrue(asks.answer(answer(Performative.PROPOSE, "b", "x")));
        assertTrue(asks.answer(answer(Performative.PROPOSE, "c", "x")));
    }

    @Test
    void aGatheringRefusedOutrightFailsAndAGatheringCountsAgainstTheBound() {
        CompletableFuture<List<ACLMessage>> all = asks.gather("g", 2, late -> false, () -> { });
        asks.open("q", () -> { });
        assertThrows(PendingAsks.AsksFullException.class, () -> asks.gather("h", 1, late -> false, () -> { }));
        asks.fail("g", new IllegalStateException("refused"));
        assertTrue(all.isCompletedExceptionally());
    }

    private static ACLMessage answer(Performative performative, String inReplyTo, String sender) {
        return ACLMessage.builder(performative).sender(AID.parse(sender + "@siebog")).receiver(AID.parse("a@siebog")).inReplyTo(inReplyTo).build();
    }

    private static ACLMessage reply(String inReplyTo) {
        return ACLMessage.builder(Performative.INFORM).receiver(AID.parse("a@siebog")).inReplyTo(inReplyTo).build();
    }
}
