package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.util.ArrayList;
import java.util.List;

import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Records;
import org.siebog.it.SiebogApi.Reply;

/**
 * Back-pressure: the test server runs with small mailboxes ({@code -Dsiebog.mailbox.capacity}, see
 * arquillian.xml). A {@code Slow} agent holds its first message at a gate, so its mailbox fills
 * message by message; what is accepted (202) is handled, what is refused (503) is not, and a message
 * for several receivers reaches all of them or none.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MailboxFullIT {

    private static final int CAPACITY = Integer.getInteger("siebog.it.mailboxCapacity", 50);

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    void aFullMailboxRefusesWith503AndRetryAfterAndWhatWasAcceptedIsAllHandled() {
        String slow = siebog.startAgent("Slow", "full-slow");
        List<String> accepted = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        try {
            accepted.add(holdAtTheGate("full-slow"));
            for (int i = 0; i < CAPACITY + 10; i++) {
                String content = "m" + i;
                Reply reply = siebog.trySend(message("INFORM").to(slow).content(content).json());
                if (reply.status() == 202) {
                    accepted.add(content);
                } else {
                    String error = reply.assertError(503);
                    assertTrue(error.contains("full") && error.contains(slow), error);
                    String retryAfter = reply.header("Retry-After").orElse("");
                    assertTrue(retryAfter.matches("[1-9][0-9]*"), "Retry-After: '" + retryAfter + "'");
                    refused.add(content);
                }
            }
            assertEquals(CAPACITY + 1, accepted.size(), "the message in hand plus a full mailbox: " + accepted);
            assertEquals(10, refused.size(), "refused: " + refused);
            assertTrue(refused.contains("m" + (CAPACITY + 9)), "once full, it stays full: " + refused);
        } finally {
            siebog.openGate("full-slow");
        }

        siebog.awaitRecords("full-slow", "everything accepted is handled", r -> r.messages().size() >= accepted.size());
        siebog.send(message("INFORM").to(slow).content("after draining").json());
        Records handled = siebog.awaitRecords("full-slow", "it takes messages again", r -> r.contents().contains("after draining"));
        List<String> expected = new ArrayList<>(accepted);
        expected.add("after draining");
        assertEquals(expected, handled.contents(), "accepted messages handled once each, in order; refused ones never");

        siebog.stopAgent(slow);
    }

    @Test
    void aMessageForSeveralReceiversReachesNoneWhenOneMailboxIsFull() {
        String slow = siebog.startAgent("Slow", "multi-slow");
        String bystander = siebog.startAgent("Recorder", "multi-bystander");
        try {
            holdAtTheGate("multi-slow");
            fill(slow);

            String error = siebog.trySend(message("INFORM").to(bystander, slow).content("for both").json()).assertError(503);
            assertTrue(error.contains(slow), error);
            siebog.trySend(message("INFORM").to(slow, bystander).content("for both, slow first").json()).assertError(503);
            siebog.send(message("INFORM").to(bystander).content("alone").json());
        } finally {
            siebog.openGate("multi-slow");
        }
        siebog.awaitRecords("multi-slow", "it drains", r -> r.messages().size() == 1 + CAPACITY);

        siebog.send(message("INFORM").to(bystander, slow).content("together").json());
        assertEquals(List.of("alone", "together"),
                siebog.awaitRecords("multi-bystander", "it gets 'together'", r -> r.contents().contains("together")).contents());
        assertTrue(siebog.awaitRecords("multi-slow", "it gets 'together'", r -> r.contents().contains("together"))
                .contents().stream().noneMatch(c -> c.startsWith("for both")));

        siebog.stopAgent(slow);
        siebog.stopAgent(bystander);
    }

    @Test
    void aDelayedPostThatFindsTheMailboxFullComesBackToItsSenderAsAFailure() {
        String slow = siebog.startAgent("Slow", "delayed-full-slow");
        String sender = siebog.startAgent("Recorder", "delayed-full-sender");
        try {
            holdAtTheGate("delayed-full-slow");
            fill(slow);
            Reply accepted = siebog.trySend(message("REQUEST").from(sender).to(slow).content("delayed into a full mailbox")
                    .replyWith("df-1").json(), 100);
            assertEquals(202, accepted.status(), "a delayed post checks only that the receiver exists: " + accepted);
            // Let the timer fire while the mailbox is still full (the sender may share the held lane, so do not insist).
            long deadline = System.currentTimeMillis() + 3_000;
            while (siebog.records("delayed-full-sender").messages().isEmpty() && System.currentTimeMillis() < deadline) {
                SiebogApi.sleep(50);
            }
        } finally {
            siebog.openGate("delayed-full-slow");
        }

        JsonObject failure = siebog.awaitRecords("delayed-full-sender", "the FAILURE", r -> r.messages().size() == 1)
                .messages().get(0);
        assertEquals("FAILURE", failure.getString("performative"));
        assertEquals("df-1", failure.getString("inReplyTo"));
        assertTrue(failure.getString("content").contains("full"), failure::toString);
        siebog.send(message("INFORM").to(slow).content("flush").json());
        Records slowSaw = siebog.awaitRecords("delayed-full-slow", "it drains", r -> r.contents().contains("flush"));
        assertEquals(1 + CAPACITY + 1, slowSaw.messages().size(), "held, a full mailbox, the flush; not the delayed one");
        assertTrue(slowSaw.contents().stream().noneMatch(c -> c.startsWith("delayed")), slowSaw::toString);

        siebog.stopAgent(slow);
        siebog.stopAgent(sender);
    }

    /** Sends the Slow agent its first message and waits until its handler holds it at the gate. */
    private String holdAtTheGate(String slowName) {
        siebog.send(message("INFORM").to(SiebogApi.aid(slowName)).content("held").json());
        siebog.awaitRecords(slowName, "it holds its first message", r -> r.messages().size() == 1);
        return "held";
    }

    /** Fills the held agent's mailbox to capacity; each post must be accepted. */
    private void fill(String slow) {
        for (int i = 0; i < CAPACITY; i++) {
            siebog.send(message("INFORM").to(slow).content("fill" + i).json());
        }
        siebog.trySend(message("INFORM").to(slow).content("one too many").json()).assertError(503);
    }
}
