package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.siebog.it.SiebogApi.message;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentManager;
import org.siebog.api.MailboxFullException;
import org.siebog.api.MessageManager;
import org.siebog.api.Performative;
import org.siebog.api.UnknownAgentException;
import org.siebog.it.SiebogApi.Records;
import org.siebog.it.SiebogApi.Reply;
import org.siebog.it.agents.AgentRecords;

/**
 * Delivery: delayed posts (over REST and through {@link MessageManager} in the server), per-agent
 * ordering with several concurrent senders, and one message at a time per agent.
 */
@ExtendWith(ArquillianExtension.class)
class MessagingIT {

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(MessagingIT.class, SiebogApi.class);
    }

    // In the server (tests without @RunAsClient):
    @EJB(lookup = MessageManager.JNDI_NAME)
    MessageManager messages;

    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    @Inject
    AgentRecords records;

    // On the client (@RunAsClient tests):
    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    @RunAsClient
    void aRestClientCanAskAnAgentAndGetsItsAnswer() {
        String pong = siebog.startAgent("Responder", "asked-pong");
        Reply answer = siebog.post("messages?awaitReplyMs=10000", message("REQUEST").to(pong).content("ping").json().toString());
        assertEquals(200, answer.status(), answer::toString);
        assertEquals("INFORM", answer.object().getString("performative"));
        assertEquals(pong, answer.object().getString("sender"));
        assertEquals("pong", answer.object().getString("content"));

        String silent = siebog.startAgent("Recorder", "never-answers");
        String timeout = siebog.post("messages?awaitReplyMs=300", message("INFORM").to(silent).content("hello?").json().toString())
                .assertError(504);
        assertTrue(timeout.contains(silent), timeout);
        String inbox = answer.object().getJsonArray("receivers").getString(0);
        assertTrue(inbox.startsWith("reply-"), inbox);
        assertTrue(siebog.post("messages", message("INFORM").to(inbox).content("late").json().toString())
                .assertError(404).contains(inbox), "the temporary inbox is gone once its answer has come");
        siebog.stopAgent(pong);
        siebog.stopAgent(silent);
    }

    @Test
    @RunAsClient
    void clientsWaitingForRepliesDoNotHoldUpOtherRequests() throws Exception {
        String silent = siebog.startAgent("Recorder", "keeps-them-waiting");
        String pong = siebog.startAgent("Responder", "answers-at-once");
        // More waiting asks than the server has HTTP worker threads (16 per core): were each
        // holding one, the ping below would queue until they time out.
        int waiting = 100;
        ExecutorService askers = Executors.newFixedThreadPool(waiting);
        try {
            List<Future<Reply>> asks = new ArrayList<>();
            for (int i = 0; i < waiting; i++) {
                asks.add(askers.submit(() -> siebog.post("messages?awaitReplyMs=8000",
                        message("QUERY_REF").to(silent).content("anyone?").json().toString())));
            }
            siebog.awaitRecords("keeps-them-waiting", "every ask has reached the silent agent", r -> r.messages().size() == waiting);
            Reply answer = siebog.post("messages?awaitReplyMs=8000", message("REQUEST").to(pong).content("ping").json().toString());
            assertEquals(200, answer.status(), answer::toString);
            assertTrue(asks.stream().noneMatch(Future::isDone), "the ping was answered only after some asks had timed out");
            for (Future<Reply> ask : asks) {
                assertEquals(504, ask.get(60, TimeUnit.SECONDS).status());
            }
        } finally {
            askers.shutdownNow();
        }
        siebog.stopAgent(silent);
        siebog.stopAgent(pong);
    }

    @Test
    @RunAsClient
    void aDelayedPostIsNotDeliveredBeforeItsDelayButIsAfterIt() {
        String recorder = siebog.startAgent("Recorder", "delayed");

        long postedAt = System.currentTimeMillis();
        Reply accepted = siebog.trySend(message("INFORM").to(recorder).content("later").json(), 500);
        assertEquals(202, accepted.status(), accepted::toString);
        SiebogApi.sleep(250);
        Records early = siebog.records("delayed");
        long lookedAt = System.currentTimeMillis();
        if (lookedAt - postedAt < 500) { // (a stalled client could look too late for this to mean anything)
            assertEquals(List.of(), early.messages(), "delivered before its delay");
        }

        JsonObject delivered = siebog.awaitRecords("delayed", "the delayed message arrives", r -> r.messages().size() == 1)
                .messages().get(0);
        assertEquals("later", delivered.getString("content"));
        long deliveredAfter = delivered.getJsonNumber("atMillis").longValue() - postedAt;
        assertTrue(deliveredAfter >= 500, "delivered " + deliveredAfter + " ms after the post");
        assertTrue(deliveredAfter < 10_000, "delivered " + deliveredAfter + " ms after the post");

        siebog.stopAgent(recorder);
    }

    @Test
    @RunAsClient
    void aDelayedPostWhoseReceiverStoppedMeanwhileComesBackToItsSenderAsAFailure() {
        String sender = siebog.startAgent("Recorder", "delay-sender");
        String receiver = siebog.startAgent("Recorder", "delay-receiver");

        JsonObject request = message("REQUEST").from(sender).to(receiver).content("too late")
                .replyWith("late-1").field("conversationId", "conversation-1").json();
        Reply accepted = siebog.trySend(request, 1_000);
        assertEquals(202, accepted.status(), accepted::toString);
        siebog.stopAgent(receiver);

        JsonObject failure = siebog.awaitRecords("delay-sender", "the sender hears of it", r -> r.messages().size() == 1)
                .messages().get(0);
        assertEquals("FAILURE", failure.getString("performative"));
        assertEquals("late-1", failure.getString("inReplyTo"));
        assertEquals("conversation-1", failure.getString("conversationId"));
        assertTrue(failure.getString("content").contains(receiver), failure::toString);
        Records gone = siebog.records("delay-receiver");
        assertEquals(List.of(), gone.messages());
        assertEquals(List.of("started", "stopped"), gone.events());

        siebog.stopAgent(sender);
    }

    @Test
    void messageManagerPostsWithADelayInTheServerToo() throws Exception {
        AID receiver = agents.start("Recorder", "in-server-delayed", Map.of()).aid();

        long postedAt = System.nanoTime();
        messages.post(ACLMessage.builder(Performative.INFORM).receiver(receiver).content("later").build(), Duration.ofMillis(500));
        TimeUnit.MILLISECONDS.sleep(250);
        if (System.nanoTime() - postedAt < TimeUnit.MILLISECONDS.toNanos(500)) {
            assertEquals(List.of(), records.of(receiver.name()).messages(), "delivered before its delay");
        }
        SiebogApi.await("the delayed message arrives", () -> records.of(receiver.name()).messages().size() == 1);
        AgentRecords.Entry delivered = records.of(receiver.name()).messages().get(0);
        assertEquals("later", delivered.content());
        long afterMs = TimeUnit.NANOSECONDS.toMillis(delivered.atNanos() - postedAt);
        assertTrue(afterMs >= 500, "delivered " + afterMs + " ms after the post");

        // Receivers are checked when posting, not only when the delay is up.
        AID nobody = new AID("nobody-here", receiver.platform());
        assertThrows(UnknownAgentException.class, () -> messages.post(
                ACLMessage.builder(Performative.INFORM).receiver(nobody).content("x").build(), Duration.ofMillis(100)));

        agents.stop(receiver);
        SiebogApi.await("the agent stops", () -> agents.find(receiver).isEmpty());
    }

    @Test
    @RunAsClient
    void messagesFromConcurrentSendersArriveInEachSendersOrder() throws Exception {
        int senders = 4;
        int perSender = 500;
        String recorder = siebog.startAgent("Recorder", "ordered");
        AtomicInteger refusals = new AtomicInteger();

        runConcurrently(senders, sender -> {
            for (int i = 0; i < perSender; i++) {
                JsonObject message = message("INFORM").to(recorder).content(sender + ":" + i).json();
                Reply reply;
                // A full mailbox (503) is back-pressure: the sender retries the same message, keeping its order.
                while ((reply = siebog.trySend(message)).status() == 503) {
                    refusals.incrementAndGet();
                    SiebogApi.sleep(2);
                }
                if (reply.status() != 202) {
                    fail("message " + sender + ":" + i + " refused: " + reply);
                }
            }
        });

        Records received = siebog.awaitRecords("ordered", "all " + senders * perSender + " arrive",
                r -> r.messages().size() >= senders * perSender);
        assertEachSendersOrder(received.contents(), senders, perSender);
        System.out.printf("ordering: %d messages from %d senders, %d refusals (full mailbox) retried%n",
                senders * perSender, senders, refusals.get());
        siebog.stopAgent(recorder);
    }

    @Test
    void anAgentHandlesOneMessageAtATimeWhateverItsKind() throws Exception {
        for (String agentClass : List.of("StatelessRecorder", "Recorder")) {
            int senders = 4;
            int perSender = 250;
            AID agent = agents.start(agentClass, "one-at-a-time-" + agentClass, Map.of("workMicros", "200")).aid();

            runConcurrently(senders, sender -> {
                for (int i = 0; i < perSender; i++) {
                    ACLMessage message = ACLMessage.builder(Performative.INFORM).receiver(agent).content(sender + ":" + i).build();
                    while (!tryPost(message)) {
                        SiebogApi.sleep(1);
                    }
                }
            });

            AgentRecords.Log log = records.of(agent.name());
            SiebogApi.await(agentClass + " handles all", () -> log.messages().size() >= senders * perSender,
                    () -> log.messages().size() + " handled");
            assertEquals(1, log.maxInFlight(), agentClass + ": handlers running at once");
            assertEachSendersOrder(log.messages().stream().map(AgentRecords.Entry::content).toList(), senders, perSender);
            agents.stop(agent);
        }
    }

    private boolean tryPost(ACLMessage message) {
        try {
            messages.post(message);
            return true;
        } catch (MailboxFullException full) {
            return false;
        }
    }

    /** Every message exactly once, and each sender's ({@code "sender:i"}) in the order it sent them. */
    private static void assertEachSendersOrder(List<String> contents, int senders, int perSender) {
        assertEquals(senders * perSender, contents.size(), "messages handled");
        Map<String, List<Integer>> bySender = new HashMap<>();
        for (String content : contents) {
            String[] parts = content.split(":");
            bySender.computeIfAbsent(parts[0], s -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
        }
        List<Integer> inOrder = IntStream.range(0, perSender).boxed().toList();
        for (int sender = 0; sender < senders; sender++) {
            assertEquals(inOrder, bySender.get(Integer.toString(sender)), "the order of sender " + sender);
        }
    }

    private interface SenderTask {
        void run(int sender) throws Exception;
    }

    private static void runConcurrently(int threads, SenderTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int sender = i;
                running.add(pool.submit(() -> {
                    task.run(sender);
                    return null;
                }));
            }
            for (Future<?> future : running) {
                future.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
