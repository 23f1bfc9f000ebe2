package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.aid;
import static org.siebog.it.SiebogApi.message;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Records;
import org.siebog.it.SiebogApi.Reply;
import org.siebog.it.agents.FailingOnStart;

/**
 * Every refusal of the REST API: the contract's status and {@code {"error": "..."}} body, and
 * nothing changed. Each test runs beside a "witness" Recorder that the bad messages are addressed to;
 * after each test the agent list must be what it was and the witness must have got nothing.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class RestErrorsIT {

    private static final int MAX_CONTENT_CHARS = 1 << 20;
    private static final int MAX_ENVELOPE_CHARS = 128 * 1024;
    private static final int MAX_RECEIVERS = 1000;
    /** {@code PlatformConfig.maxJsonBodyBytes()}: 6 bytes per character (a JSON escape) plus 4 KiB of syntax. */
    private static final int MAX_BODY_BYTES = (MAX_CONTENT_CHARS + MAX_ENVELOPE_CHARS) * 6 + 4 * 1024;
    /** The test server's {@code siebog.message.max-delayed-bytes} (arquillian.xml). */
    private static final int MAX_DELAYED_BYTES = 4 << 20;
    private static final AtomicInteger TESTS = new AtomicInteger();

    @Deployment(name = "siebog", order = 1, testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    /** The examples beside it, as ./siebog run deploys them: Ping and Pong. */
    @Deployment(name = "examples", order = 2, testable = false)
    static WebArchive examples() {
        return SiebogDeployment.examples();
    }

    private final SiebogApi siebog = SiebogApi.testServer();
    private String witnessName;
    private String witness;
    private Map<String, JsonObject> agentsBefore;

    @BeforeEach
    void startTheWitness() {
        witnessName = "witness-" + TESTS.incrementAndGet();
        witness = siebog.startAgent("Recorder", witnessName);
        agentsBefore = siebog.agents();
    }

    @AfterEach
    void nothingChanged() {
        assertEquals(agentsBefore, siebog.agents(), "refused requests start and stop no agent");
        // Per-agent order: anything wrongly admitted before the flush is handled before it.
        siebog.send(message("INFORM").to(witness).content("flush").json());
        Records seen = siebog.awaitRecords(witnessName, "the flush arrives", r -> r.contents().contains("flush"));
        assertEquals(List.of("flush"), seen.contents(), "refused messages reach no one");
        siebog.stopAgent(witness);
    }

    @Test
    void malformedJsonIs400() {
        siebog.post("agents", "{\"agentClass\": \"Recorder\", \"name\": ").assertError(400);
        siebog.post("agents", "[\"Recorder\"]").assertError(400);
        siebog.post("messages", "{\"performative\": \"INFORM\", \"receivers\": [\"" + witness + "\"").assertError(400);
        siebog.post("messages", "not JSON at all").assertError(400);
        siebog.post("messages", "\"a JSON string\"").assertError(400);
        siebog.post("messages", "[{\"performative\": \"INFORM\", \"receivers\": [\"" + witness + "\"]}]").assertError(400);
        siebog.post("messages", "").assertError(400);
    }

    @Test
    void jsonThatIsNotAnAclMessageIs400NamingWhatIsWrong() {
        assertNamed("performative", message("SHOUT").to(witness).json().toString());
        assertNamed("performative", message("inform").to(witness).json().toString());
        assertNamed("performative", "{\"receivers\": [\"" + witness + "\"], \"content\": \"x\"}");
        assertNamed("colour", message("INFORM").to(witness).field("colour", "blue").json().toString());
        assertNamed("receivers", "{\"performative\": \"INFORM\", \"receivers\": \"" + witness + "\"}");
        assertNamed("receivers", "{\"performative\": \"INFORM\", \"receivers\": [42]}");
        assertNamed("receivers", message("INFORM").to(witness, "not/an-aid").json().toString());
        assertNamed("receiver", "{\"performative\": \"INFORM\", \"content\": \"to no one\"}");
        assertNamed("receiver", message("INFORM").content("to no one").json().toString());
        assertNamed("replyBy", message("INFORM").to(witness).field("replyBy", "tomorrow").json().toString());
        assertNamed("content", "{\"performative\": \"INFORM\", \"receivers\": [\"" + witness + "\"], \"content\": 42}");
        assertNamed("userProperties", "{\"performative\": \"INFORM\", \"receivers\": [\"" + witness + "\"], \"userProperties\": [\"a\"]}");
        assertNamed("sender", message("INFORM").to(witness).from("a@b@c/d").json().toString());
        assertNamed("delayMs", "messages?delayMs=-1", message("INFORM").to(witness).json().toString());
    }

    @Test
    void badStartRequestsAre400() {
        String unknown = siebog.tryStartAgent("NoSuchAgent", "nobody", Map.of()).assertError(400);
        assertTrue(unknown.contains("NoSuchAgent"), unknown);
        // The last: a reply inbox's name, reserved (it would route to node1's inboxes, not to the agent).
        for (String badName : List.of("a@b/c", "a@b", "a/b", "a b", "", "reply-node1-" + java.util.UUID.randomUUID())) {
            String error = siebog.tryStartAgent("Recorder", badName, Map.of()).assertError(400);
            assertTrue(error.contains("name"), badName + ": " + error);
        }
        siebog.post("agents", "{\"name\": \"no-class\"}").assertError(400);
        siebog.post("agents", "{\"agentClass\": \"Recorder\"}").assertError(400);
        siebog.post("agents", "{\"agentClass\": \"Recorder\", \"name\": 7}").assertError(400);
        siebog.post("agents", "{\"agentClass\": \"Recorder\", \"name\": \"x\", \"colour\": \"blue\"}").assertError(400);
        siebog.post("agents", "{\"agentClass\": \"Recorder\", \"name\": \"x\", \"args\": [\"a\"]}").assertError(400);
        siebog.post("agents", "{\"agentClass\": \"Recorder\", \"name\": \"x\", \"args\": {\"a\": {\"b\": \"c\"}}}").assertError(400);
        // A stateful agent whose fields cannot be replicated is refused, naming the culprit.
        String unreplicable = siebog.tryStartAgent("Unreplicable", "unreplicable", Map.of()).assertError(400);
        assertTrue(unreplicable.contains("java.lang.Thread") && unreplicable.contains("Serializable"), unreplicable);
        // An example whose onStart refuses its arguments: Ping needs 'pong'.
        String ping = siebog.tryStartAgent("Ping", "ping-without-pong", Map.of()).assertError(400);
        assertTrue(ping.contains("pong"), ping);
    }

    @Test
    void aNameInUseIs409() {
        String taken = siebog.tryStartAgent("Recorder", witnessName, Map.of()).assertError(409);
        assertTrue(taken.contains(witness), taken);
        siebog.tryStartAgent("Pong", witnessName, Map.of()).assertError(409);
        // (nothingChanged() checks the witness is still the Recorder it was, with nothing received.)
    }

    @Test
    void anAgentWhoseOnStartFailsIs400AndIsNotListed() {
        String error = siebog.tryStartAgent("FailingOnStart", "failing", Map.of()).assertError(400);
        assertTrue(error.contains(FailingOnStart.REASON), error);
        assertEquals(List.of("start-attempted"), siebog.records("failing").events(), "its onStart did run");
        // Its name was not kept: trying again is the same refusal, not a 409.
        siebog.tryStartAgent("FailingOnStart", "failing", Map.of()).assertError(400);
        assertEquals(List.of("start-attempted", "start-attempted"), siebog.records("failing").events());
    }

    @Test
    void unknownAgentsAre404() {
        String stop = siebog.delete("agents/" + aid("ghost")).assertError(404);
        assertTrue(stop.contains(aid("ghost")), stop);
        siebog.delete("agents/ghost").assertError(404);
        siebog.get("agents/" + aid("ghost")).assertError(404);
        siebog.delete("agents/" + witnessName + "@another-platform").assertError(404);
        siebog.delete("agents/ghost@").assertError(400);

        String post = siebog.trySend(message("INFORM").to(aid("ghost")).content("boo").json()).assertError(404);
        assertTrue(post.contains(aid("ghost")), post);
        siebog.trySend(message("INFORM").to(witness, aid("ghost")).content("half known").json()).assertError(404);
        siebog.trySend(message("INFORM").to(aid("ghost"), witness).content("half known").json()).assertError(404);
        siebog.trySend(message("INFORM").to(witnessName + "@another-platform").content("elsewhere").json()).assertError(404);
        siebog.trySend(message("INFORM").to(aid("ghost")).content("later").json(), 100).assertError(404);
    }

    @Test
    void oversizedMessagesAre413AndTheLimitsThemselvesAreAccepted() {
        String tooLong = siebog.trySend(message("INFORM").to(witness).content("x".repeat(MAX_CONTENT_CHARS + 1)).json())
                .assertError(413);
        assertTrue(tooLong.contains("content"), tooLong);
        siebog.trySend(message("INFORM").to(witness).content("y".repeat(MAX_CONTENT_CHARS + 1)).json(), 100).assertError(413);

        String oversizedBody = padded(message("INFORM").to(witness).content("small").json().toString(), MAX_BODY_BYTES + 1);
        String declared = siebog.post("messages", oversizedBody).assertError(413);
        assertTrue(declared.contains("body"), declared);
        // The same without a Content-Length (chunked): refused while reading.
        byte[] bytes = oversizedBody.getBytes(StandardCharsets.UTF_8);
        String chunked = siebog.post("messages", BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)),
                "application/json").assertError(413);
        assertTrue(chunked.contains("body"), chunked);

        // At the limits: the longest content, written with a 6-byte escape per character, is accepted.
        String big = siebog.startAgent("Recorder", "big");
        String longest = "\u00e9".repeat(MAX_CONTENT_CHARS);
        String escaped = message("INFORM").to(big).content("CONTENT").json().toString()
                .replace("CONTENT", "\\u00e9".repeat(MAX_CONTENT_CHARS));
        assertTrue(escaped.length() <= MAX_BODY_BYTES);
        Reply accepted = siebog.post("messages", escaped);
        assertEquals(202, accepted.status(), accepted::toString);
        String received = siebog.awaitRecords("big", "the longest message", r -> r.messages().size() == 1).contents().get(0);
        assertTrue(longest.equals(received), "the content arrives whole: " + received.length() + " characters");
        siebog.stopAgent(big);
    }

    @Test
    void everyFieldCountsTowardsTheSizeLimitNotOnlyTheContent() {
        String ontology = siebog.trySend(message("INFORM").to(witness).field("ontology", "o".repeat(3_000_000)).json())
                .assertError(413);
        assertTrue(ontology.contains("everything but the content"), ontology);
        siebog.trySend(message("INFORM").to(witness).field("conversationId", "c".repeat(MAX_ENVELOPE_CHARS + 1)).json())
                .assertError(413);
        String properties = "{\"performative\": \"INFORM\", \"receivers\": [\"" + witness + "\"], \"userProperties\": {\"a\": \""
                + "p".repeat(MAX_ENVELOPE_CHARS / 2) + "\", \"b\": \"" + "q".repeat(MAX_ENVELOPE_CHARS / 2) + "\"}}";
        siebog.post("messages", properties).assertError(413);
        // 20 MB, far over the body limit: the same JSON 413, not the listener's bare 400.
        String huge = siebog.post("messages", padded(message("INFORM").to(witness).json().toString(), 20_000_000)).assertError(413);
        assertTrue(huge.contains("body"), huge);
    }

    @Test
    void aReceiverNamedTwiceGetsTheMessageOnceAndTooManyReceiversAre400() {
        String once = siebog.startAgent("Recorder", "once-" + witnessName);
        String[] sameOneHundredTimes = new String[100];
        Arrays.fill(sameOneHundredTimes, once);
        siebog.send(message("INFORM").to(sameOneHundredTimes).content("one of 100").json());
        siebog.send(message("INFORM").to(once).content("after").json());
        Records got = siebog.awaitRecords("once-" + witnessName, "both messages", r -> r.contents().contains("after"));
        assertEquals(List.of("one of 100", "after"), got.contents(), "the receiver named 100 times got the message once");
        siebog.stopAgent(once);

        String[] tooMany = new String[MAX_RECEIVERS + 1];
        for (int i = 0; i < tooMany.length; i++) {
            tooMany[i] = i == 0 ? witness : aid("r" + i);
        }
        String error = siebog.trySend(message("INFORM").to(tooMany).json()).assertError(400);
        assertTrue(error.contains("at most " + MAX_RECEIVERS + " receivers"), error);
    }

    @Test
    void aDelayThatIsNotANumberIs400() {
        assertNamed("delayMs", "messages?delayMs=soon", message("INFORM").to(witness).json().toString());
    }

    @Test
    void delaysAreBoundedAndOutOfBoundsIs400NotA500() {
        String inform = message("INFORM").to(witness).json().toString();
        assertNamed("from 0 to 86400000", "messages?delayMs=9223372036854775807", inform);
        assertNamed("from 0 to 86400000", "messages?delayMs=86400001", inform);
        assertNamed("delayMs", "messages?delayMs=99999999999999999999999", inform);
    }

    @Test
    void theDelayedMessagesANodeHoldsAreBoundedIn503() {
        String sink = siebog.startAgent("Recorder", "sink-" + witnessName);
        String content = "d".repeat(900_000); // about 1.8 MB held while it waits: 2 fit in the test server's 4 MiB
        int admitted = 0;
        Reply refused = null;
        while (refused == null) {
            Reply reply = siebog.trySend(message("INFORM").to(sink).content(content).json(), 3000);
            if (reply.status() == 202) {
                admitted++;
                assertTrue(admitted * 1_800_000L <= MAX_DELAYED_BYTES, "admitted " + admitted + " delayed messages of 1.8 MB");
            } else {
                refused = reply;
            }
        }
        String error = refused.assertError(503);
        assertTrue(error.contains("siebog.message.max-delayed-bytes"), error);
        int held = admitted;
        Records got = siebog.awaitRecords("sink-" + witnessName, "the admitted delayed messages", r -> r.messages().size() == held);
        assertEquals(held, got.messages().size());
        // Delivered, they no longer count: the node takes delayed messages again.
        assertEquals(202, siebog.trySend(message("INFORM").to(sink).content(content).json(), 10).status());
        siebog.awaitRecords("sink-" + witnessName, "the last one", r -> r.messages().size() == held + 1);
        siebog.stopAgent(sink);
    }

    @Test
    void badReplyWaitsAre400() {
        String inform = message("INFORM").to(witness).json().toString();
        assertNamed("awaitReplyMs", "messages?awaitReplyMs=soon", inform);
        assertNamed("awaitReplyMs", "messages?awaitReplyMs=-5", inform);
        assertNamed("from 0 to 300000", "messages?awaitReplyMs=300001", inform);
        assertNamed("cannot be combined", "messages?awaitReplyMs=10&delayMs=10", inform);
    }

    @Test
    void placingAnAgentOnANodeThatIsNotInTheClusterIs400() {
        String error = siebog.post("agents", "{\"agentClass\": \"Recorder\", \"name\": \"x\", \"node\": \"node9\"}").assertError(400);
        assertTrue(error.contains("node9"), error);
        siebog.post("agents", "{\"agentClass\": \"Recorder\", \"name\": \"x\", \"node\": 9}").assertError(400);
    }

    @Test
    void theRestOfTheApiAnswersErrorsInTheSameForm() {
        siebog.post("messages", BodyPublishers.ofString(message("INFORM").to(witness).json().toString()), "text/plain")
                .assertError(415);
        siebog.get("no-such-resource").assertError(404);
        siebog.delete("agent-classes").assertError(405);
    }

    /** A 400 whose error names {@code what}. */
    private void assertNamed(String what, String body) {
        assertNamed(what, "messages", body);
    }

    private void assertNamed(String what, String path, String body) {
        String error = siebog.post(path, body).assertError(400);
        assertTrue(error.contains(what), () -> body + " → " + error);
    }

    /** {@code json} with spaces before its closing brace, {@code bytes} long in all. */
    private static String padded(String json, int bytes) {
        return json.substring(0, json.length() - 1) + " ".repeat(bytes - json.length()) + "}";
    }
}
