package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Reply;

/**
 * The tuple space through Java agents ({@code TupleUser} runs {@code org.siebog.api.Tuples} on
 * command) and through its FIPA agent {@code tuples@siebog} directly: out, rdp, inp, a waiting rd
 * and in that hold no lane, one tuple taken once by racing takers, leases, bounds and bad input.
 * The multi-node suite races takers on two nodes; the browser tests use it from client agents.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TuplesIT {

    /** The test server's bounds (arquillian.xml). */
    private static final int MAX_TUPLES = Integer.getInteger("siebog.it.maxTuples", 20);
    private static final int MAX_WAITERS = Integer.getInteger("siebog.it.maxTupleWaiters", 5);

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(TuplesIT.class, SiebogApi.class);
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    @AfterEach
    void emptyTheSpace() {
        for (int arity = 1; arity <= 3; arity++) {
            String template = "{\"action\": \"inp\", \"template\": [" + String.join(",", Collections.nCopies(arity, "null")) + "]}";
            while (!content(action(template)).isNull("tuple")) {
                // take what a test left, of each length the tests use
            }
        }
        siebog.stopAll("TupleUser");
    }

    @Test
    void outReadTakeAndNothingLeft() {
        String user = siebog.startAgent("TupleUser", "tuple-user");
        assertEquals("ok", command(user, "out - job,1,resize"));
        assertEquals("ok", command(user, "out - job,2,crop"));
        assertEquals("got job,1,resize", command(user, "rdp job,_,_"), "the oldest first");
        assertEquals("got job,2,crop", command(user, "rdp _,_,crop"));
        assertEquals("none", command(user, "rdp job,_"), "a template matches tuples of its own length only");
        assertEquals("got job,1,resize", command(user, "inp job,_,_"));
        assertEquals("got job,2,crop", command(user, "inp job,_,_"));
        assertEquals("none", command(user, "inp job,_,_"), "each taken once");
        assertEquals("none", command(user, "rd 200 job,_,_"), "a wait that ends without a tuple");
    }

    @Test
    void aWaitingTakerHoldsNoLaneAndGetsTheTupleWrittenLater() throws Exception {
        String taker = siebog.startAgent("TupleUser", "taker");
        String writer = siebog.startAgent("TupleUser", "writer");
        CompletableFuture<String> taken = CompletableFuture.supplyAsync(() -> command(taker, "in 20000 order,_"));
        SiebogApi.sleep(300);
        assertEquals("here", command(taker, "ping"), "the taker answers while its in waits");
        assertEquals("ok", command(writer, "out - order,42"));
        assertEquals("got order,42", taken.get());
        assertEquals("none", command(writer, "rdp order,_"), "taken");
    }

    @Test
    void racingTakersTakeATupleOnce() throws Exception {
        List<String> takers = IntStream.range(0, 3).mapToObj(i -> siebog.startAgent("TupleUser", "racer-" + i)).toList();
        List<CompletableFuture<String>> waits = new ArrayList<>();
        for (String taker : takers) {
            waits.add(CompletableFuture.supplyAsync(() -> command(taker, "in 3000 prize,_")));
        }
        SiebogApi.sleep(300);
        assertEquals("INFORM", action("{\"action\": \"out\", \"fields\": [\"prize\", \"gold\"]}").getString("performative"));
        List<String> outcomes = new ArrayList<>();
        for (CompletableFuture<String> wait : waits) {
            outcomes.add(wait.get());
        }
        assertEquals(1, outcomes.stream().filter("got prize,gold"::equals).count(), outcomes::toString);
        assertEquals(2, outcomes.stream().filter("none"::equals).count(), outcomes::toString);
    }

    @Test
    void aTupleGoesWhenItsLeaseEnds() {
        String user = siebog.startAgent("TupleUser", "leaser");
        assertEquals("ok", command(user, "out 300 lease,short"));
        assertEquals("ok", command(user, "out 60000 lease,long"));
        assertEquals("got lease,short", command(user, "rdp lease,short"));
        SiebogApi.sleep(600);
        assertEquals("none", command(user, "rdp lease,short"));
        assertEquals("got lease,long", command(user, "inp lease,long"));
    }

    @Test
    void boundsAndBadInputAreRefusedAndChangeNothing() {
        String user = siebog.startAgent("TupleUser", "bounded");
        for (int i = 0; i < MAX_TUPLES; i++) {
            assertEquals("ok", command(user, "out - full," + i));
        }
        assertEquals("refused 503", command(user, "out - full,one-too-many"));
        assertEquals("none", command(user, "rdp full,one-too-many"));
        assertEquals("got full,0", command(user, "inp full,0"));
        assertEquals("ok", command(user, "out - full,room-again"));
        while (command(user, "inp full,_").startsWith("got")) {
            // empty it again
        }

        List<CompletableFuture<String>> waiting = new ArrayList<>();
        for (int i = 0; i < MAX_WAITERS; i++) {
            String waiter = siebog.startAgent("TupleUser", "waiter-" + i);
            waiting.add(CompletableFuture.supplyAsync(() -> command(waiter, "rd 1500 never,_")));
        }
        SiebogApi.sleep(500);
        assertEquals("refused 503", command(user, "rd 1000 never,_"), "this node's waiters at their bound");
        waiting.forEach(w -> assertEquals("none", w.join()));

        for (String bad : List.of("{\"action\": \"out\", \"fields\": []}", "{\"action\": \"out\", \"fields\": [null]}",
                "{\"action\": \"out\", \"fields\": [" + String.join(",", Collections.nCopies(17, "\"x\"")) + "]}",
                "{\"action\": \"out\", \"fields\": [\"" + "x".repeat(4097) + "\"]}",
                "{\"action\": \"out\", \"fields\": [\"x\"], \"leaseMs\": 0}", "{\"action\": \"out\", \"fields\": [\"x\"], \"leaseMs\": 86400001}",
                "{\"action\": \"rd\", \"template\": [\"x\"], \"timeoutMs\": 0}", "{\"action\": \"rdp\", \"template\": [7]}")) {
            JsonObject answer = action(bad);
            assertEquals("FAILURE", answer.getString("performative"), bad);
            assertEquals(400, content(answer).getInt("status"), bad);
        }
        for (String garbage : List.of("not json", "{\"action\": \"eval\"}", "{\"action\": \"in\", \"template\": [\"x\"]}", "{\"action\": \"out\"}")) {
            JsonObject answer = action(garbage);
            assertEquals("NOT_UNDERSTOOD", answer.getString("performative"), garbage);
            assertEquals(400, content(answer).getInt("status"), garbage);
        }
        assertTrue(content(action("{\"action\": \"rdp\", \"template\": [\"x\"]}")).isNull("tuple"), "nothing was written");
        siebog.tryStartAgent("TupleUser", "tuples", Map.of()).assertError(409);
    }

    private String command(String agent, String command) {
        Reply answer = siebog.post("messages?awaitReplyMs=30000", message("REQUEST").to(agent).content(command).json().toString());
        assertEquals(200, answer.status(), answer::toString);
        return answer.object().getString("content");
    }

    private JsonObject action(String content) {
        Reply answer = siebog.post("messages?awaitReplyMs=10000", message("REQUEST").to("tuples@siebog").content(content).json().toString());
        assertEquals(200, answer.status(), answer::toString);
        return answer.object();
    }

    private static JsonObject content(JsonObject message) {
        return Json.createReader(new StringReader(message.getString("content"))).readObject();
    }
}
