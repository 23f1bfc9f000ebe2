package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentContext;
import org.siebog.api.Performative;
import org.siebog.message.MessageId;

class MailboxTest {

    private static final AID OWNER = AID.parse("owner@siebog");

    private final Lane lane = new Lane(() -> true);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final HandlerMeters handled = new HandlerMeters(registry.counter("delivered"), registry.timer("handled"));
    private final Lane otherLane = new Lane(() -> true);

    MailboxTest() {
        lane.start(new Thread(lane, "test-lane"));
        otherLane.start(new Thread(otherLane, "test-lane-2"));
    }

    @AfterEach
    void stopLanes() {
        lane.stop();
        otherLane.stop();
    }

    /**
     * A replicated agent's question is named after the message being handled and its place among the
     * handler's questions, so the same handler replayed on another node names it the same; a question
     * asked outside a handler, or by an agent that is not replicated, gets a random name. Questions open
     * when a record was saved come back to the agent that carries on as FAILUREs, before anything else.
     */
    @Test
    void questionsAreNamedByTheMessageThatAskedThemAndLostOnesComeBackAsFailures() throws InterruptedException {
        AtomicReference<Mailbox> self = new AtomicReference<>();
        List<String> names = new CopyOnWriteArrayList<>();
        RecordingAgent agent = new RecordingAgent(3) {
            @Override
            public void handle(AgentContext context, ACLMessage message) {
                if (message.performative() == Performative.INFORM) {
                    names.add(self.get().nextQuestionName());
                    names.add(self.get().nextQuestionName());
                }
                super.handle(context, message);
            }
        };
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 100, 8, handled);
        self.set(mailbox);
        mailbox.journal(new Replicated());
        mailbox.questionsLost(List.of("ask-lost"), "node3");
        for (long counter = 7; counter <= 8; counter++) {
            assertTrue(mailbox.reserve());
            mailbox.enqueue(new Envelope(new MessageId("node1/boot", counter), counter, message("m" + counter)));
        }
        mailbox.activate();
        assertTrue(agent.done.await(5, TimeUnit.SECONDS));
        String seven = "ask-" + UUID.nameUUIDFromBytes("node1/boot#7".getBytes(StandardCharsets.UTF_8));
        String eight = "ask-" + UUID.nameUUIDFromBytes("node1/boot#8".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(seven + "-1", seven + "-2", eight + "-1", eight + "-2"), names);
        assertTrue(agent.contents.get(0).contains("ask-lost") && agent.contents.get(0).contains("node3"), agent.contents::toString);
        Mailbox idle = new Mailbox(context(OWNER), new RecordingAgent(0), lane, 100, 8, handled);
        idle.journal(new Replicated());
        assertTrue(idle.nextQuestionName().matches("ask-[0-9a-f-]{36}"), "outside a handler: random");
    }

    /** A replicated agent's journal, as far as naming questions goes: one that is also an origin. */
    private static final class Replicated implements Journal, Origin {
        @Override
        public MessageId next(AID receiver) {
            return new MessageId(OWNER.toString(), 1);
        }
    }

    /**
     * A mailbox whose agent this node is still claiming admits nothing: what comes meanwhile waits and
     * goes on, in the order it came, once the claim is won; once it is lost (the mailbox left), it goes
     * on too, finding the mailbox left (so the router sends it where the agent is).
     */
    @Test
    void aMailboxBeingClaimedAdmitsNothingAndWhatWaitedGoesOnInOrderOnceTheClaimIsSettled() {
        Mailbox won = new Mailbox(context(OWNER), new RecordingAgent(0), lane, 2, 8, handled);
        won.holdUntilClaimed();
        assertFalse(won.reserve());
        List<String> order = new ArrayList<>();
        assertTrue(won.whenClaimSettled(() -> order.add("first")));
        assertTrue(won.whenClaimSettled(() -> order.add("second")));
        assertThrows(IllegalStateException.class, () -> won.whenClaimSettled(() -> order.add("third")), "at most capacity wait");
        assertEquals(List.of(), order);
        won.claimed();
        assertEquals(List.of("first", "second"), order);
        assertFalse(won.beingClaimed());
        assertFalse(won.whenClaimSettled(() -> order.add("late")), "settled: the caller admits at once");
        assertTrue(won.reserve());

        Mailbox lost = new Mailbox(context(OWNER), new RecordingAgent(0), lane, 2, 8, handled);
        lost.holdUntilClaimed();
        List<Boolean> leftWhenRun = new ArrayList<>();
        assertTrue(lost.whenClaimSettled(() -> leftWhenRun.add(lost.left())));
        lost.leave(handledUpTo -> { });
        assertEquals(List.of(true), leftWhenRun);
        assertFalse(lost.reserve());
    }

    /**
     * A node that may not act for its agents (NodeLease) holds their lanes, and a mailbox looks before
     * each message, not only when its run begins: here the lane closes while the agent handles its
     * third message of a run of eight, and the fourth waits until the lane opens again.
     */
    @Test
    void aClosedLaneHandlesNoFurtherMessageUntilItOpens() throws InterruptedException {
        java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);
        AtomicInteger heldLooks = new AtomicInteger();
        Lane held = new Lane(() -> open.get() || heldLooks.incrementAndGet() < 0);
        held.start(new Thread(held, "test-held-lane"));
        try {
            RecordingAgent agent = new RecordingAgent(10) {
                @Override
                public void handle(AgentContext context, ACLMessage message) {
                    super.handle(context, message);
                    if (contents.size() == 3) {
                        open.set(false);
                    }
                }
            };
            Mailbox mailbox = new Mailbox(context(OWNER), agent, held, 10_000, 8, handled);
            for (int i = 0; i < 10; i++) {
                assertTrue(mailbox.reserve());
                mailbox.enqueue(message("m" + i));
            }
            mailbox.activate();
            for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); heldLooks.get() < 3 && System.nanoTime() < until; ) {
                Thread.onSpinWait();
            }
            assertTrue(heldLooks.get() >= 3, "the lane looked and was held");
            assertEquals(List.of("m0", "m1", "m2"), agent.contents, "nothing handled after the lane closed");
            open.set(true);
            assertTrue(agent.done.await(5, TimeUnit.SECONDS));
            assertEquals(10, agent.contents.size());
        } finally {
            held.stop();
        }
    }

    @Test
    void messagesReachTheAgentInAdmissionOrderOneAtATime() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(2000);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 10_000, 8, handled);
        mailbox.activate();
        // Posters on several threads: each one's messages must arrive in its own order.
        Thread[] posters = new Thread[4];
        for (int p = 0; p < posters.length; p++) {
            int poster = p;
            posters[p] = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    assertTrue(mailbox.reserve());
                    mailbox.enqueue(message(poster + ":" + i));
                }
            });
            posters[p].start();
        }
        for (Thread poster : posters) {
            poster.join();
        }
        assertTrue(agent.done.await(10, TimeUnit.SECONDS));
        assertEquals(1, agent.maxConcurrent.get());
        for (int p = 0; p < posters.length; p++) {
            String prefix = p + ":";
            List<Integer> seen = agent.contents.stream().filter(c -> c.startsWith(prefix))
                    .map(c -> Integer.parseInt(c.substring(prefix.length()))).toList();
            assertEquals(500, seen.size());
            for (int i = 0; i < seen.size(); i++) {
                assertEquals(i, seen.get(i));
            }
        }
        // Counted before the handler runs, timed after it returns: the last sample may still be on its way to the timer.
        assertEquals(2000, handled.delivered().count(), "each message counted once as delivered");
        long samples = 2000 / HandlerMeters.SAMPLE_EVERY; // the first, then every eighth
        for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); handled.handled().count() < samples && System.nanoTime() < until; ) {
            Thread.onSpinWait();
        }
        assertEquals(samples, handled.handled().count(), "one message in eight timed");
    }

    @Test
    void nothingReachesTheAgentBeforeActivation() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(1);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 10, 8, handled);
        assertTrue(mailbox.reserve());
        mailbox.enqueue(message("early"));
        assertFalse(agent.done.await(200, TimeUnit.MILLISECONDS));
        mailbox.activate();
        assertTrue(agent.done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("early"), agent.contents);
    }

    @Test
    void aFullMailboxRefusesUntilMessagesAreTaken() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(3);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 3, 8, handled);
        for (int i = 0; i < 3; i++) {
            assertTrue(mailbox.reserve());
            mailbox.enqueue(message("m" + i));
        }
        assertFalse(mailbox.reserve(), "a fourth message must be refused");
        assertEquals(3, mailbox.size());
        mailbox.activate();
        assertTrue(agent.done.await(5, TimeUnit.SECONDS));
        assertTrue(mailbox.reserve(), "room again once handled");
        mailbox.cancelReservation();
        assertEquals(0, mailbox.size());
    }

    @Test
    void aLeavingMailboxRefusesNewMessagesAndHandsOverOnceItsReservationsAreSettled() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(1);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 10, 8, handled);
        mailbox.activate();
        assertTrue(mailbox.reserve());
        mailbox.enqueue(new Envelope(null, 1, message("handled here")));
        assertTrue(agent.done.await(5, TimeUnit.SECONDS));
        assertTrue(mailbox.reserve(), "a poster is between its reservation and its message");

        java.util.concurrent.CompletableFuture<Long> left = new java.util.concurrent.CompletableFuture<>();
        mailbox.leave(left::complete);
        assertTrue(mailbox.left());
        assertFalse(mailbox.reserve(), "no new message once it leaves");
        assertFalse(waitFor(left, 200), "not before the reserved message is in");

        mailbox.enqueue(new Envelope(null, 2, message("queued, for the next host")));
        assertEquals(1L, waitFor(left, 5000) ? left.join() : -1L, "handed over with the last position handled here");
        assertEquals(List.of("handled here"), agent.contents, "the queued message is the next host's");
        assertEquals(0, agent.stops.get(), "a move is not a stop");
    }

    private static boolean waitFor(java.util.concurrent.CompletableFuture<?> f, long ms) {
        try {
            f.get(ms, TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void replayedMessagesGoInBeyondCapacityAndHoldNewOnesBack() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(4);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 2, 8, handled);
        for (int i = 0; i < 3; i++) {
            mailbox.replay(Envelope.unlogged(message("replayed " + i)));
        }
        assertEquals(3, mailbox.size());
        assertFalse(mailbox.reserve(), "over capacity until the replayed ones are handled");

        mailbox.activate();
        for (int waited = 0; mailbox.size() > 0 && waited < 5_000; waited += 5) {
            Thread.sleep(5);
        }
        assertTrue(mailbox.reserve());
        mailbox.enqueue(message("new"));

        assertTrue(agent.done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("replayed 0", "replayed 1", "replayed 2", "new"), agent.contents);
    }

    @Test
    void closingHandlesWhatWasAdmittedThenStopsTheAgentOnce() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(5);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 100, 2, handled);
        for (int i = 0; i < 5; i++) {
            assertTrue(mailbox.reserve());
            mailbox.enqueue(message("m" + i));
        }
        CountDownLatch stopped = new CountDownLatch(1);
        mailbox.close(stopped::countDown);
        assertFalse(mailbox.reserve(), "a closed mailbox takes nothing new");
        mailbox.activate();
        assertTrue(stopped.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), agent.contents);
        assertEquals(1, agent.stops.get());
    }

    @Test
    void aSlotReservedBeforeCloseIsHandledBeforeTheStop() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(1);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 10, 8, handled);
        mailbox.activate();
        assertTrue(mailbox.reserve()); // a poster between reserve and enqueue...
        CountDownLatch stopped = new CountDownLatch(1);
        mailbox.close(stopped::countDown); // ...when the agent is stopped
        assertFalse(stopped.await(200, TimeUnit.MILLISECONDS), "must wait for the reserved message");
        mailbox.enqueue(message("late"));
        assertTrue(stopped.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("late"), agent.contents);
        assertEquals(1, agent.stops.get());
    }

    @Test
    void aCancelledReservationLetsAClosingMailboxStop() throws InterruptedException {
        Mailbox mailbox = new Mailbox(context(OWNER), new RecordingAgent(0), lane, 10, 8, handled);
        mailbox.activate();
        assertTrue(mailbox.reserve());
        CountDownLatch stopped = new CountDownLatch(1);
        mailbox.close(stopped::countDown);
        mailbox.cancelReservation();
        assertTrue(stopped.await(5, TimeUnit.SECONDS));
    }

    @Test
    void aFailingAgentDoesNotStopItsMailbox() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(2) {
            @Override
            public void handle(AgentContext context, ACLMessage message) {
                super.handle(context, message);
                if (message.content().equals("boom")) {
                    throw new IllegalStateException("boom");
                }
            }
        };
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 10, 8, handled);
        mailbox.activate();
        for (String content : List.of("boom", "after")) {
            assertTrue(mailbox.reserve());
            mailbox.enqueue(message(content));
        }
        assertTrue(agent.done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("boom", "after"), agent.contents);
    }

    @Test
    void anAnswerGoesToItsQuestionOnTheLaneAndOtherMessagesToTheAgent() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(2);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 10, 8, handled);
        List<String> threads = new CopyOnWriteArrayList<>();
        mailbox.asks().open("q1", () -> { }).thenAccept(answer -> threads.add(Thread.currentThread().getName() + " " + answer.content()));
        mailbox.activate();
        for (ACLMessage message : List.of(message("before"), answer("q1", "the answer"), answer("q1", "a second answer"))) {
            assertTrue(mailbox.reserve());
            mailbox.enqueue(message);
        }
        assertTrue(agent.done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("before", "a second answer"), agent.contents, "an ended question takes no more answers");
        assertEquals(List.of("test-lane the answer"), threads);
        assertEquals(0, mailbox.asks().size());
    }

    @Test
    void tasksRunOnTheLaneBeforeTheNextMessageAndNotOnceTheAgentStopped() throws InterruptedException {
        RecordingAgent agent = new RecordingAgent(1);
        Mailbox mailbox = new Mailbox(context(OWNER), agent, lane, 10, 8, handled);
        List<String> order = new CopyOnWriteArrayList<>();
        assertTrue(mailbox.reserve());
        mailbox.enqueue(message("first"));
        mailbox.runBetweenMessages(() -> order.add("task on " + Thread.currentThread().getName() + " after " + agent.contents));
        mailbox.activate();
        assertTrue(agent.done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("task on test-lane after []"), order, "held until the agent started, then ahead of messages");

        CountDownLatch stopped = new CountDownLatch(1);
        mailbox.asks().open("open", () -> order.add("cleaned up"));
        mailbox.close(stopped::countDown);
        assertTrue(stopped.await(5, TimeUnit.SECONDS));
        mailbox.runBetweenMessages(() -> order.add("too late"));
        Thread.sleep(100);
        assertEquals(List.of("task on test-lane after []", "cleaned up"), order, "a stopped agent's questions are dropped");
    }

    @Test
    void agentsOnTwoLanesPingPong() throws InterruptedException {
        CountDownLatch allHops = new CountDownLatch(1);
        AtomicInteger hops = new AtomicInteger();
        Mailbox[] boxes = new Mailbox[2];
        for (int i = 0; i < 2; i++) {
            int me = i;
            boxes[i] = new Mailbox(context(AID.parse("p" + i + "@siebog")), new RecordingAgent(0) {
                @Override
                public void handle(AgentContext context, ACLMessage message) {
                    if (hops.incrementAndGet() == 10_000) {
                        allHops.countDown();
                    } else {
                        Mailbox other = boxes[1 - me];
                        assertTrue(other.reserve());
                        other.enqueue(message);
                    }
                }
            }, i == 0 ? lane : otherLane, 10, 8, handled);
            boxes[i].activate();
        }
        assertTrue(boxes[0].reserve());
        boxes[0].enqueue(message("ball"));
        assertTrue(allHops.await(20, TimeUnit.SECONDS), "10,000 hops between lanes, parking and waking in between");
    }

    /** A context whose sends fail: these tests only look at delivery into one mailbox. */
    private static AgentContext context(AID self) {
        return new AgentContext() {
            public AID self() {
                return self;
            }

            public void send(ACLMessage message) {
                throw new UnsupportedOperationException();
            }

            public void send(ACLMessage message, java.time.Duration delay) {
                throw new UnsupportedOperationException();
            }

            public java.util.concurrent.CompletionStage<ACLMessage> ask(ACLMessage question, java.time.Duration timeout) {
                throw new UnsupportedOperationException();
            }

            public java.util.concurrent.CompletionStage<java.util.List<ACLMessage>> askAll(ACLMessage question, java.time.Duration timeout) {
                throw new UnsupportedOperationException();
            }

            public void moveTo(String node) {
                throw new UnsupportedOperationException();
            }
        };
    }

    private static ACLMessage message(String content) {
        return ACLMessage.builder(Performative.INFORM).receiver(OWNER).content(content).build();
    }

    private static ACLMessage answer(String inReplyTo, String content) {
        return ACLMessage.builder(Performative.INFORM).receiver(OWNER).inReplyTo(inReplyTo).content(content).build();
    }

    private static class RecordingAgent implements Agent {
        final List<String> contents = new CopyOnWriteArrayList<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxConcurrent = new AtomicInteger();
        final AtomicInteger stops = new AtomicInteger();
        final CountDownLatch done;

        RecordingAgent(int expected) {
            done = new CountDownLatch(expected);
        }

        @Override
        public void start(AgentContext context, Map<String, String> args) {
        }

        @Override
        public void handle(AgentContext context, ACLMessage message) {
            maxConcurrent.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            contents.add(message.content());
            inFlight.decrementAndGet();
            done.countDown();
        }

        @Override
        public void stop(AgentContext context) {
            stops.incrementAndGet();
        }

        @Override
        public byte[] saveState() {
            return String.join("\n", contents).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public void restoreState(AgentContext context, byte[] state) {
            contents.clear();
        }
    }
}
