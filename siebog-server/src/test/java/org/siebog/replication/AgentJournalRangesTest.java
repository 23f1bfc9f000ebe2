package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.siebog.agent.AID;
import org.siebog.agent.Agent;
import org.siebog.agent.AgentContext;
import org.siebog.delivery.Envelope;
import org.siebog.message.ACLMessage;
import org.siebog.message.MessageId;
import org.siebog.message.Performative;

/** The log ranges a journal's records name: where a takeover finds what a record does not cover. */
class AgentJournalRangesTest {

    private static final AID A = AID.parse("a@siebog");

    /** A log that stores nothing: records are kept here, segment numbers are set by the test. */
    private static final class FakeLog extends ReplicationLog {
        final List<AgentRecord> saved = new ArrayList<>();
        long next = 1;

        @Override
        long nextSegment() {
            return next;
        }

        @Override
        String writer() {
            return "here/boot";
        }

        @Override
        void saveNow(AID aid, AgentRecord record) {
            saved.add(record);
        }

        @Override
        CompletableFuture<Boolean> save(AID aid, AgentRecord record, List<CompletableFuture<InboxSegment>> covered) {
            saved.add(record);
            return CompletableFuture.completedFuture(true);
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

    private void admit(AgentJournal journal, long counter) {
        journal.admit(new MessageId("sender/x", counter), ACLMessage.builder(Performative.INFORM).receiver(A).build(), mailbox::add);
    }

    private static Envelope envelope(long seq) {
        return new Envelope(new MessageId("sender/x", 100 + seq), seq, ACLMessage.builder(Performative.INFORM).receiver(A).build());
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
        AgentRecord saved = new AgentRecord(new byte[0], 10, Map.of(), Map.of(), 7, List.of(LogRange.open("dead/boot", 30)));
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
        AgentRecord saved = new AgentRecord(new byte[0], 10, Map.of(), Map.of(), 7, List.of(LogRange.open("dead/boot", 30)));
        log.next = 50;
        AgentJournal journal = AgentJournal.resumed(A, new StubAgent(), log, saved, List.of());
        journal.moved();
        assertEquals(List.of(LogRange.open("here/boot", 50)), log.last().ranges());
    }
}
