package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.siebog.delivery.HandlerMeters;
import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentContext;
import org.siebog.api.Performative;
import org.siebog.api.RemoteNodeException;
import org.siebog.delivery.Envelope;
import org.siebog.delivery.Mailbox;
import org.siebog.delivery.ReceiverCounters;
import org.siebog.message.MessageId;

/**
 * What a journal's records hold: the log ranges where a takeover finds what a record does not
 * cover, and the identities of the messages the saved state has handled.
 */
class AgentJournalTest {

    private static final AID A = AID.parse("a@siebog");

    /** A log that stores nothing: records are kept here, segment numbers are set by the test. */
    private static final class FakeLog extends ReplicationLog {
        final List<AgentRecord> saved = new ArrayList<>();
        final List<Integer> coveredPerSave = new ArrayList<>();
        final List<LoggedMessage> appended = new ArrayList<>();
        long next = 1;
        boolean failSaves;
        double saveIntervalShare = 1;

        @Override
        double saveIntervalShare() {
            return saveIntervalShare;
        }

        @Override
        long nextSegment() {
            return next;
        }

        @Override
        String writer() {
            return "here/boot";
        }

        @Override
        LoggedMessage append(AID aid, long incarnation, long seq, MessageId id, ACLMessage message) {
            LoggedMessage logged = super.append(aid, incarnation, seq, id, message);
            appended.add(logged);
            return logged;
        }

        @Override
        void saveNow(AID aid, AgentRecord record) {
            saved.add(record);
        }

        @Override
        CompletableFuture<Boolean> save(AID aid, AgentRecord record, List<CompletableFuture<InboxSegment>> covered) {
            saved.add(record);
            coveredPerSave.add(covered.size());
            return CompletableFuture.completedFuture(!failSaves);
        }

        AgentRecord last() {
            return saved.get(saved.size() - 1);
        }
    }

    private static final class StubAgent implements Agent {
        @Override
        public void start(AgentContext context, Map<String, String> args) {
        }

        @Override
        public void handle(AgentContext context, ACLMessage message) {
        }

        @Override
        public void stop(AgentContext context) {
        }

        @Override
        public byte[] saveState() {
            return new byte[] {1};
        }

        @Override
        public void restoreState(AgentContext context, byte[] state) {
        }
    }

    private final FakeLog log = new FakeLog();
    private final List<Envelope> mailbox = new ArrayList<>();

    /** As the router admits: the identity is recorded, then the message gets a position; completes when it may be acknowledged. */
    private CompletableFuture<Void> admit(AgentJournal journal, long counter) {
        MessageId id = new MessageId("sender/x", counter);
        assertTrue(journal.firstTime(id));
        return journal.admit(id, ACLMessage.builder(Performative.INFORM).receiver(A).build(), mailbox::add);
    }

    /** A segment of one message that its node wrote after it lost touch: the message's admission may not be acknowledged. */
    private static InboxSegment writtenAfterLosingTouch(RemoteNodeException lostTouch) {
        InboxSegment segment = new InboxSegment("here/boot", 1, 1, 100);
        segment.unacknowledged(lostTouch);
        return segment;
    }

    private static boolean holds(AgentRecord record, long counter) {
        DedupWindow window = record.handled().get("sender/x");
        return window != null && window.contains(counter);
    }

    private static Envelope envelope(long seq) {
        return new Envelope(new MessageId("sender/x", 100 + seq), seq, ACLMessage.builder(Performative.INFORM).receiver(A).build());
    }

    @Test
    void aMessageLoggedAfterItsNodeLostTouchIsNotAcknowledgedButStaysInTheLog() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        CompletableFuture<Void> admitted = admit(journal, 1);
        RemoteNodeException lostTouch = new RemoteNodeException("node here lost touch with the cluster while it logged the message");
        InboxSegment segment = writtenAfterLosingTouch(lostTouch);

        log.appended.get(0).written().complete(segment);
        CompletionException refused = assertThrows(CompletionException.class, admitted::join);
        assertSame(lostTouch, refused.getCause(), "its sender hears why, and sends it again");
        assertEquals(1, mailbox.size(), "the agent has it all the same");
        assertTrue(segment.release(), "the segment is released when a save covers its message, as any other");
    }

    @Test
    void aDuplicateOfAMessageStillBeingLoggedIsAdmittedOnlyOnceTheFirstCopyIs() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        MessageId id = new MessageId("sender/x", 1);
        CompletableFuture<Void> first = admit(journal, 1);
        assertTrue(journal.seen(id));

        CompletableFuture<Void> duplicate = journal.duplicateOf(id);
        assertFalse(duplicate.isDone(), "while the first copy is being logged, its sender's resend waits with it");
        log.appended.get(0).written().complete(new InboxSegment("here/boot", 1, 1, 100));
        assertTrue(first.isDone() && !first.isCompletedExceptionally());
        assertTrue(duplicate.isDone() && !duplicate.isCompletedExceptionally(), "admitted together");
        assertTrue(journal.duplicateOf(id).isDone(), "a duplicate that comes later is answered at once");
        assertEquals(1, mailbox.size(), "and dropped: the agent has the message once");
    }

    @Test
    void aDuplicateOfAMessageThatCouldNotBeAcknowledgedIsRefusedToo() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        admit(journal, 1);
        CompletableFuture<Void> duplicate = journal.duplicateOf(new MessageId("sender/x", 1));
        RemoteNodeException lostTouch = new RemoteNodeException("node here lost touch with the cluster while it logged the message");

        log.appended.get(0).written().complete(writtenAfterLosingTouch(lostTouch));
        assertSame(lostTouch, assertThrows(CompletionException.class, duplicate::join).getCause(),
                "the resend's sender hears that it may not count it as admitted either");
    }

    @Test
    void aStartingAgentsRecordPointsAtTheFirstSegmentOfItsUnhandledMessages() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        log.next = 4;
        admit(journal, 1); // logged before the agent has started: in segment 4 or later
        log.next = 9;
        journal.started();
        assertEquals(List.of(LogRange.open("here/boot", 4)), log.last().ranges());
    }

    @Test
    void aSaveCoveringEverythingPointsPastTheWritersLastSegment() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        admit(journal, 1);
        log.next = 12;
        journal.handledUpTo(1, true);
        assertEquals(1, log.last().handledSeq());
        assertEquals(List.of(LogRange.open("here/boot", 12)), log.last().ranges());
    }

    @Test
    void aResumedAgentNamesItsEarlierHostsUntilASaveCoversWhatItReplayed() {
        AgentRecord saved = new AgentRecord(new byte[0], 10, Map.of(), ReceiverCounters.Saved.NONE, 7, List.of(LogRange.open("dead/boot", 30)));
        log.next = 50;
        AgentJournal journal = AgentJournal.resumed(A, new StubAgent(), log, saved, List.of(envelope(11), envelope(12)));
        journal.moved();
        AgentRecord moved = log.last();
        assertEquals(10, moved.handledSeq());
        assertEquals(List.of(new LogRange("dead/boot", 30, 12), LogRange.open("here/boot", 50)), moved.ranges());

        log.next = 55;
        admit(journal, 1); // position 13, logged here
        log.next = 60;
        journal.handledUpTo(11, true);
        assertEquals(List.of(new LogRange("dead/boot", 30, 12), LogRange.open("here/boot", 55)), log.last().ranges());
        journal.handledUpTo(12, true);
        assertEquals(List.of(LogRange.open("here/boot", 55)), log.last().ranges());
        journal.handledUpTo(13, true);
        assertEquals(List.of(LogRange.open("here/boot", 60)), log.last().ranges());
    }

    @Test
    void aResumedAgentWithNothingToReplayNamesThisNodeOnly() {
        AgentRecord saved = new AgentRecord(new byte[0], 10, Map.of(), ReceiverCounters.Saved.NONE, 7, List.of(LogRange.open("dead/boot", 30)));
        log.next = 50;
        AgentJournal journal = AgentJournal.resumed(A, new StubAgent(), log, saved, List.of());
        journal.moved();
        assertEquals(List.of(LogRange.open("here/boot", 50)), log.last().ranges());
    }

    @Test
    void aRecordHoldsTheIdentitiesOfHandledMessagesOnly() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        journal.started();
        admit(journal, 1);
        admit(journal, 2);
        admit(journal, 3);
        journal.handledUpTo(2, true);
        AgentRecord saved = log.last();
        assertTrue(holds(saved, 1) && holds(saved, 2));
        assertFalse(holds(saved, 3)); // if its log write never finished, its sender sends it again after a crash
        assertTrue(journal.seen(new MessageId("sender/x", 3))); // while this node lives, it is a duplicate

        AgentJournal resumed = AgentJournal.resumed(A, new StubAgent(), log, saved, List.of());
        assertTrue(resumed.seen(new MessageId("sender/x", 2)));
        assertTrue(resumed.firstTime(new MessageId("sender/x", 3)));
    }

    @Test
    void replayedMessagesAreDuplicatesAtOnceAndInTheRecordOnceHandled() {
        AgentRecord saved = new AgentRecord(new byte[0], 10, Map.of(), ReceiverCounters.Saved.NONE, 7, List.of(LogRange.open("dead/boot", 30)));
        AgentJournal journal = AgentJournal.resumed(A, new StubAgent(), log, saved, List.of(envelope(11), envelope(12)));
        assertTrue(journal.seen(new MessageId("sender/x", 111)));
        assertFalse(journal.firstTime(new MessageId("sender/x", 112)));
        journal.moved();
        assertFalse(holds(log.last(), 111));
        journal.handledUpTo(11, true);
        assertTrue(holds(log.last(), 111));
        assertFalse(holds(log.last(), 112));
    }

    @Test
    void aRefusedIdentityIsNotRecorded() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        MessageId refused = new MessageId("sender/x", 1); // the router found the mailbox full: firstTime never called
        assertFalse(journal.seen(refused));
        admit(journal, 2);
        assertFalse(journal.seen(refused));
        admit(journal, 1); // sent again later: admitted
    }

    @Test
    void whatAFailedSaveCoveredIsReleasedByTheNextOne() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        admit(journal, 1);
        log.failSaves = true;
        journal.handledUpTo(1, true);
        log.failSaves = false;
        admit(journal, 2);
        journal.handledUpTo(2, true);
        assertEquals(List.of(1, 2), log.coveredPerSave); // message 1's log entry is not left held forever
        admit(journal, 3);
        journal.handledUpTo(3, true);
        assertEquals(1, log.coveredPerSave.get(2));
    }

    @Test
    void aSaveDueOnceTheOneInFlightIsWrittenStillWaitsForTheSaveInterval() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        List<Long> requestedInNanos = new ArrayList<>();
        ScheduledThreadPoolExecutor timer = attachTimer(journal, requestedInNanos);
        admit(journal, 1);
        CompletableFuture<Void> output = new CompletableFuture<>();
        journal.sent(output); // a save waits for the agent's outputs to be admitted
        journal.handledUpTo(1, true);
        admit(journal, 2);
        journal.handledUpTo(2, false); // the save of 1 is still in flight
        assertEquals(List.of(), requestedInNanos);
        output.complete(null);
        assertEquals(1, requestedInNanos.size(), "the next save is requested for later, not at once");
        assertTrue(requestedInNanos.get(0) > AgentJournal.SAVE_INTERVAL_NANOS / 2, requestedInNanos::toString);
        timer.shutdownNow();
    }

    private static final SimpleMeterRegistry REGISTRY = new SimpleMeterRegistry();
    private static final HandlerMeters METERS = new HandlerMeters(REGISTRY.counter("delivered"), REGISTRY.timer("handled"));

    /** Attaches a mailbox and a timer that runs nothing and notes the delays of the saves requested later. */
    private static ScheduledThreadPoolExecutor attachTimer(AgentJournal journal, List<Long> requestedInNanos) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1) {
            @Override
            public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
                requestedInNanos.add(unit.toNanos(delay));
                return null;
            }
        };
        journal.attach(new Mailbox(new AgentContext() {
            public AID self() {
                return A;
            }

            public void send(ACLMessage message) {
            }

            public void send(ACLMessage message, java.time.Duration delay) {
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
        }, new StubAgent(), Runnable::run, 10, 8, METERS), timer);
        return timer;
    }

    /** A journal whose agent just saved: a save asked for without {@code now} is within the interval. */
    private AgentJournal justSaved() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        attachTimer(journal, new ArrayList<>()).shutdownNow();
        admit(journal, 1);
        journal.handledUpTo(1, true);
        log.saved.clear();
        return journal;
    }

    @Test
    void withinTheSaveIntervalAnAgentWaitsUnlessItHoldsALotOrTheLogIsCrowded() {
        AgentJournal quiet = justSaved();
        admit(quiet, 2);
        quiet.handledUpTo(2, false);
        assertEquals(List.of(), log.saved, "a small backlog waits for the interval");

        log.saveIntervalShare = 0;
        admit(quiet, 3);
        quiet.handledUpTo(3, false);
        assertEquals(1, log.saved.size(), "a log at its bound makes agents save at once");
        assertEquals(3, log.last().handledSeq());
    }

    @Test
    void anAgentHoldingMoreThanSaveAfterBytesOfUnsavedMessagesSavesAtOnce() {
        AgentJournal busy = justSaved();
        String large = "x".repeat((int) (AgentJournal.SAVE_AFTER_BYTES / 2) + 1); // over the bound as 2 bytes a character
        MessageId id = new MessageId("sender/x", 2);
        assertTrue(busy.firstTime(id));
        busy.admit(id, ACLMessage.builder(Performative.INFORM).receiver(A).content(large).build(), mailbox::add);
        busy.handledUpTo(2, false);
        assertEquals(1, log.saved.size(), "the large backlog is saved (and its segments dropped) without waiting");
    }

    @Test
    void answersToReplyInboxesAreUnnumberedAndLeaveNothingInTheRecord() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        for (int i = 0; i < 100_000; i++) { // an agent answering 100,000 REST asks, each with an inbox of its own
            AID inbox = new AID("reply-node1-" + java.util.UUID.randomUUID(), "siebog");
            assertTrue(journal.next(inbox).isUnnumbered());
        }
        assertEquals(1, journal.next(AID.parse("b@siebog")).counter());
        journal.started();
        assertEquals(Map.of("b@siebog", 1L), log.last().sent().entries());
    }

    @Test
    void anUnnumberedIdentityIsNeverTakenForARepeat() {
        AgentJournal journal = AgentJournal.starting(A, new StubAgent(), log);
        MessageId unnumbered = MessageId.unnumbered("sender/x");
        assertTrue(journal.firstTime(unnumbered));
        assertFalse(journal.seen(unnumbered));
        assertTrue(journal.firstTime(unnumbered));
    }

    @Test
    void theCountersInARecordAreBoundedAndAResumedAgentNumbersItsSendsAsTheLostRunDid() {
        AgentJournal live = AgentJournal.starting(A, new StubAgent(), log);
        int receivers = ReceiverCounters.MAX_RECEIVERS + 500;
        for (int i = 0; i < 3 * receivers; i++) {
            live.next(AID.parse("r" + (i % receivers) + "@siebog"));
        }
        admit(live, 1);
        live.handledUpTo(1, true);
        AgentRecord saved = AgentRecord.decode(log.last().encode()); // as a takeover reads it
        int held = saved.sent().entries().size();
        assertTrue(held <= ReceiverCounters.MAX_RECEIVERS && held >= ReceiverCounters.MAX_RECEIVERS * 7 / 8, held + " receivers held");

        AgentJournal resumed = AgentJournal.resumed(A, new StubAgent(), log, saved, List.of());
        for (int i = 0; i < 5_000; i++) { // the handlers run after the save, and again on the survivor
            AID receiver = AID.parse("r" + (i * 7 % 3_000) + "@siebog");
            assertEquals(live.next(receiver), resumed.next(receiver));
        }
    }

    @Test
    void aReceiverTheSenderDroppedTellsItsRepeatsFromItsNewMessages() {
        AgentJournal sender = AgentJournal.starting(A, new StubAgent(), log);
        AgentJournal receiver = AgentJournal.starting(AID.parse("b@siebog"), new StubAgent(), new FakeLog());
        AID b = AID.parse("b@siebog");
        List<MessageId> toB = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 5; i++) {
                toB.add(sender.next(b));
            }
            for (int i = 0; i < 2 * ReceiverCounters.MAX_RECEIVERS; i++) { // b is dropped each round
                sender.next(AID.parse("other" + i + "@siebog"));
            }
        }
        for (MessageId id : toB) {
            assertTrue(receiver.firstTime(id), id + " is new to b");
        }
        for (MessageId id : toB) {
            assertTrue(receiver.seen(id), id + " again is a repeat");
        }
    }
}
