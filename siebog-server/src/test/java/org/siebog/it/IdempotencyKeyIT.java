package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.aid;
import static org.siebog.it.SiebogApi.message;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Reply;

/**
 * {@code POST /messages} with an {@code Idempotency-Key} (docs/cluster.md, "Posting again"): a
 * message posted again under its key is handled once by a stateful agent, and every post of it is
 * answered 202; the key names one message of one caller. The receivers are the examples' Counter,
 * which counts what it handles and says so when asked ({@code handled=N ... repeats=R}). A keyed post
 * is admitted before its 202, and the question after it, so the answer counts every admitted copy:
 * nothing here waits on time.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class IdempotencyKeyIT {

    @Deployment(name = "siebog", order = 1, testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    /** The examples beside it: the Counter. */
    @Deployment(name = "examples", order = 2, testable = false)
    static WebArchive examples() {
        return SiebogDeployment.examples();
    }

    private final SiebogApi admin = SiebogApi.testServer();
    private final SiebogApi user = admin.as("user");

    @Test
    void theSamePostThreeTimesUnderOneKeyIsHandledOnceAndEachIsAnswered202() {
        String counter = admin.startAgent("Counter", "idempotent-thrice");
        JsonObject first = numbered(counter, 1);
        String key = UUID.randomUUID().toString();
        for (int i = 0; i < 3; i++) {
            accepted(admin.trySend(first, key));
        }
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(counter));

        // Another key is another message, even with the same body: the Counter sees its number again.
        accepted(admin.trySend(first, UUID.randomUUID().toString()));
        assertEquals("handled=2 highest=1 gaps=0 repeats=1 outOfOrder=0 firstRepeats=n:1", report(counter));
        admin.stopAgent(counter);
    }

    @Test
    void aKeyMayHoldAnyPrintableAsciiCommasAndQuotesToo() {
        String counter = admin.startAgent("Counter", "idempotent-printable");
        String key = "order 7, \"express\"; " + "~".repeat(100) + UUID.randomUUID().toString().substring(0, 8);
        assertEquals(128, key.length());
        accepted(admin.trySend(numbered(counter, 1), key));
        accepted(admin.trySend(numbered(counter, 1), key));
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(counter));
        admin.stopAgent(counter);
    }

    @Test
    void aKeyUsedForAnotherMessageIs422AndNothingIsSent() {
        String counter = admin.startAgent("Counter", "idempotent-reused");
        String key = "order-" + UUID.randomUUID();
        accepted(admin.trySend(numbered(counter, 1), key));

        String reused = admin.trySend(numbered(counter, 2), key).assertError(422);
        assertTrue(reused.contains(key) && reused.contains("different message") && reused.contains("not sent"), reused);
        // Any field counts: the same content in another conversation is another message.
        admin.trySend(message("INFORM").to(counter).field("conversationId", "other").content("1").json(), key).assertError(422);
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(counter));

        // The first message is still what the key names: posting it again is 202, and handled no more.
        accepted(admin.trySend(numbered(counter, 1), key));
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(counter));
        admin.stopAgent(counter);
    }

    @Test
    void aMalformedKeyOrOneWithDelayMsOrAwaitReplyMsIs400AndNothingIsSent() {
        String counter = admin.startAgent("Counter", "idempotent-malformed");
        String body = numbered(counter, 1).toString();
        // What else is not printable ASCII does not reach the API as sent (IdempotencyKeyTest has it): WildFly folds a tab
        // into a space, and Java's HTTP client sends what is not ASCII as '?'.
        String tooLong = keyed("messages", body, List.of("k".repeat(129))).assertError(400);
        assertTrue(tooLong.contains("Idempotency-Key") && tooLong.contains("1 to 128 printable ASCII characters")
                && tooLong.contains("129 characters"), tooLong);
        String empty = keyed("messages", body, List.of("")).assertError(400);
        assertTrue(empty.contains("it is empty"), empty);
        String key = UUID.randomUUID().toString();
        assertTrue(keyed("messages", body, List.of(key, "another")).assertError(400).contains("one Idempotency-Key header"));
        String delayed = keyed("messages?delayMs=10", body, List.of(key)).assertError(400);
        assertTrue(delayed.contains("delayMs"), delayed);
        String asked = keyed("messages?awaitReplyMs=1000", body, List.of(key)).assertError(400);
        assertTrue(asked.contains("awaitReplyMs"), asked);
        assertEquals("handled=0 highest=0 gaps=0 repeats=0 outOfOrder=0", report(counter));

        // None of them stored the key: it still names nothing.
        accepted(admin.trySend(numbered(counter, 1), key));
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(counter));
        admin.stopAgent(counter);
    }

    @Test
    void keysArePerUserSoOneUsersKeyNeitherCollidesWithNorRevealsAnothers() {
        String counter = admin.startAgent("Counter", "idempotent-users");
        String shared = UUID.randomUUID().toString();
        accepted(admin.trySend(numbered(counter, 1), shared));
        // The same key and message from another user: a message of theirs, handled.
        accepted(user.trySend(numbered(counter, 1), shared));
        assertEquals("handled=2 highest=1 gaps=0 repeats=1 outOfOrder=0 firstRepeats=n:1", report(counter));

        // Another message under a key the admin used: 202, not the 422 that would tell the user the admin had used it.
        String adminsKey = UUID.randomUUID().toString();
        accepted(admin.trySend(numbered(counter, 2), adminsKey));
        accepted(user.trySend(numbered(counter, 3), adminsKey));
        assertEquals("handled=4 highest=3 gaps=0 repeats=1 outOfOrder=0 firstRepeats=n:1", report(counter));
        // Each one's key still names their own message for them.
        accepted(user.trySend(numbered(counter, 3), adminsKey));
        accepted(admin.trySend(numbered(counter, 2), adminsKey));
        user.trySend(numbered(counter, 2), adminsKey).assertError(422);
        admin.trySend(numbered(counter, 3), adminsKey).assertError(422);
        assertEquals("handled=4 highest=3 gaps=0 repeats=1 outOfOrder=0 firstRepeats=n:1", report(counter));

        // Who may not post may not use a key (the endpoint's roles).
        admin.as("viewer").trySend(numbered(counter, 4), UUID.randomUUID().toString()).assertError(403);
        admin.anonymous().trySend(numbered(counter, 4), UUID.randomUUID().toString()).assertError(401);
        admin.stopAgent(counter);
    }

    @Test
    void aRepeatReachesTheReceiversThatMissedTheFirstPostAndOnlyThose() {
        String first = admin.startAgent("Counter", "idempotent-first");
        String second = aid("idempotent-second");
        String key = UUID.randomUUID().toString();
        JsonObject toBoth = message("INFORM").to(first, second).field("conversationId", "n").content("1").json();
        String unknown = admin.trySend(toBoth, key).assertError(404);
        assertTrue(unknown.contains(second), unknown);

        admin.startAgent("Counter", "idempotent-second");
        accepted(admin.trySend(toBoth, key));
        accepted(admin.trySend(toBoth, key));
        // The first receiver handled it once whether or not the refused post had reached it; the second once, now.
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(first));
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(second));
        admin.stopAgent(first);
        admin.stopAgent(second);
    }

    @Test
    void aPublicationUnderOneKeyIsHandledOnceByEachSubscriberAndBySubscribersThatCameSince() {
        String early = admin.startAgent("Counter", "idempotent-early");
        String late = admin.startAgent("Counter", "idempotent-late");
        subscribe(early, "idempotent-news");
        JsonObject publication = message("INFORM").to(aid("topic:idempotent-news")).field("conversationId", "n").content("1").json();
        String key = UUID.randomUUID().toString();
        accepted(admin.trySend(publication, key));
        accepted(admin.trySend(publication, key));
        subscribe(late, "idempotent-news");
        // The subscribers are chosen anew: the late one gets it now, the early one drops the repeat.
        accepted(admin.trySend(publication, key));
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(early));
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(late));

        // Another key is another publication, as another key is another message.
        accepted(admin.trySend(publication, UUID.randomUUID().toString()));
        assertEquals("handled=2 highest=1 gaps=0 repeats=1 outOfOrder=0 firstRepeats=n:1", report(early));
        admin.stopAgent(early);
        admin.stopAgent(late);
    }

    @Test
    void concurrentFirstPostsUnderOneKeyGoUnderOneIdentity() throws Exception {
        String counter = admin.startAgent("Counter", "idempotent-racing");
        JsonObject first = numbered(counter, 1);
        String key = UUID.randomUUID().toString();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<Reply>> posts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                posts.add(clients.submit(() -> admin.trySend(first, key)));
            }
            for (Future<Reply> post : posts) {
                accepted(post.get(60, TimeUnit.SECONDS));
            }
        } finally {
            clients.shutdownNow();
        }
        assertEquals("handled=1 highest=1 gaps=0 repeats=0 outOfOrder=0", report(counter));
        admin.stopAgent(counter);
    }

    /** An INFORM the Counter counts: number {@code n} of the conversation "n". */
    private static JsonObject numbered(String counter, int n) {
        return message("INFORM").to(counter).field("conversationId", "n").content(Integer.toString(n)).json();
    }

    /** Subscribes {@code agent} to {@code topic}, as the agent itself would (an admin may post in its name). */
    private void subscribe(String agent, String topic) {
        String action = Json.createObjectBuilder().add("action", "subscribe").add("topic", topic).build().toString();
        Reply subscribed = admin.post("messages?awaitReplyMs=10000",
                message("REQUEST").to(aid("topics")).field("sender", agent).content(action).json().toString());
        assertEquals(200, subscribed.status(), subscribed::toString);
    }

    private Reply keyed(String path, String body, List<String> keys) {
        return admin.post(path, body, Map.of("Idempotency-Key", keys));
    }

    private static void accepted(Reply reply) {
        assertEquals(202, reply.status(), reply::toString);
    }

    /** The Counter's own account of what it handled, asked after everything posted to it before was admitted. */
    private String report(String counter) {
        Reply report = admin.post("messages?awaitReplyMs=10000", message("QUERY_REF").to(counter).json().toString());
        assertEquals(200, report.status(), report::toString);
        return report.object().getString("content");
    }
}
