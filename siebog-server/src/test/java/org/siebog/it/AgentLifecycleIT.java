package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.aid;
import static org.siebog.it.SiebogApi.message;

import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Records;
import org.siebog.it.SiebogApi.Reply;

/** Agent classes, starting, listing and stopping agents, and messages going round, through the REST API. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AgentLifecycleIT {

    @Deployment(name = "siebog", order = 1, testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    /** The examples beside it, as ./siebog run deploys them: their agent classes are listed with the platform's. */
    @Deployment(name = "examples", order = 2, testable = false)
    static WebArchive examples() {
        return SiebogDeployment.examples();
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    void agentClassesListTheExamplesAndTheTestAgentsWithTheirKind() {
        Map<String, String> classes = siebog.agentClasses();

        Map<String, String> expected = Map.ofEntries(
                Map.entry("Ping", "stateful"), Map.entry("Pong", "stateless"),
                Map.entry("Counter", "stateful"), Map.entry("Ticker", "stateless"),
                Map.entry("Sender", "stateful"), Map.entry("Receiver", "stateless"), Map.entry("SenderReceiverRun", "stateful"),
                Map.entry("Recorder", "stateful"), Map.entry("StatelessRecorder", "stateless"), Map.entry("Slow", "stateful"),
                Map.entry("Thrower", "stateful"), Map.entry("FailingOnStart", "stateful"), Map.entry("Responder", "stateless"),
                Map.entry("Tally", "stateful"), Map.entry("Asker", "stateful"), Map.entry("StatelessAsker", "stateless"),
                Map.entry("Unreplicable", "stateful"), Map.entry("TspCoordinator", "stateful"), Map.entry("Publisher", "stateful"), Map.entry("Participant", "stateful"), Map.entry("Initiator", "stateful"), Map.entry("TupleUser", "stateful"),
                Map.entry("DfHolder", "stateless"), Map.entry("DfSearcher", "stateless"),
                Map.entry("BookSeller", "stateful"), Map.entry("BookBuyer", "stateful"),
                Map.entry("BrowserBookBuyer", "client"), Map.entry("BrowserBookSeller", "client"));
        expected.forEach((name, kind) -> assertEquals(kind, classes.get(name), () -> name + " in " + classes));
        // Only agents are listed: the managers and other beans of the deployments are not. The rest are
        // the JavaScript modules in the agents/ directory of the Siebog WAR (Echo, the test's TestClient)
        // and of the examples' WAR (TspAnt, Primes: named in java:global/siebog-client-agents).
        Map<String, String> others = new java.util.HashMap<>(classes);
        others.keySet().removeAll(expected.keySet());
        assertEquals(Set.of("Echo", "TestClient", "TspAnt", "Primes"), others.keySet(), others::toString);
        others.forEach((name, kind) -> assertEquals("client", kind, name));
    }

    @Test
    void aStartedAgentIsListedWithItsClassAndNodeAndAStoppedOneLeavesTheList() {
        String node = theOnlyNode();

        Reply started = siebog.tryStartAgent("Recorder", "lifecycle", Map.of("note", "hello"));
        assertEquals(201, started.status(), started::toString);
        assertEquals(Json.createObjectBuilder().add("aid", aid("lifecycle")).add("location", node).build(), started.object());
        assertEquals(siebog.uri("agents/" + aid("lifecycle")).toString(), started.header("Location").orElse(null));

        JsonObject listed = Json.createObjectBuilder()
                .add("aid", aid("lifecycle")).add("agentClass", "Recorder").add("location", node).build();
        assertEquals(listed, siebog.agents().get(aid("lifecycle")));
        Reply found = siebog.get("agents/" + aid("lifecycle"));
        assertEquals(200, found.status(), found::toString);
        assertEquals(listed, found.object());
        assertEquals(List.of("started"), siebog.records("lifecycle").events());
        // The node itself lists it among the agents that live on it, and says it acts for them.
        JsonObject here = siebog.get("nodes/here").object();
        assertEquals(node, here.getString("name"), here::toString);
        assertTrue(here.getBoolean("acting"), here::toString);
        assertFalse(here.containsKey("refusal"), () -> "only a node that does not act says why: " + here);
        assertEquals(List.of(node), here.getJsonArray("view").getValuesAs(jakarta.json.JsonString::getString), here::toString);
        assertTrue(siebog.get("nodes/here/agents").array().getValuesAs(jakarta.json.JsonString::getString).contains(aid("lifecycle")));

        Reply stopped = siebog.delete("agents/" + aid("lifecycle"));
        assertEquals(204, stopped.status(), stopped::toString);
        assertEquals("", stopped.body());
        SiebogApi.await("the stopped agent leaves the list", () -> !siebog.agents().containsKey(aid("lifecycle")));
        assertEquals(List.of("started", "stopped"), siebog.records("lifecycle").events(), "onStop ran once");
        siebog.get("agents/" + aid("lifecycle")).assertError(404);
        assertFalse(siebog.get("nodes/here/agents").array().getValuesAs(jakarta.json.JsonString::getString).contains(aid("lifecycle")));

        // Its name is free again.
        siebog.startAgent("Recorder", "lifecycle");
        siebog.stopAgent(aid("lifecycle"));
        assertEquals(List.of("started", "stopped", "started", "stopped"), siebog.records("lifecycle").events());
    }

    @Test
    void aStoppedAgentHandlesWhatItsMailboxHoldsThenStopsAndTakesNothingNew() {
        String slow = siebog.startAgent("Slow", "stopping-slow");
        for (String content : List.of("1", "2", "3")) {
            siebog.send(message("INFORM").to(slow).content(content).json());
        }
        siebog.awaitRecords("stopping-slow", "it holds the first message", r -> r.messages().size() == 1);

        Reply stopped = siebog.delete("agents/" + slow);
        assertEquals(204, stopped.status(), stopped::toString);
        String refused = siebog.trySend(message("INFORM").to(slow).content("after stop").json()).assertError(404);
        assertTrue(refused.contains(slow), refused);

        siebog.openGate("stopping-slow");
        SiebogApi.await("the stopped agent leaves the list", () -> !siebog.agents().containsKey(slow));
        Records records = siebog.records("stopping-slow");
        assertEquals(List.of("1", "2", "3"), records.contents(), "what was admitted before the stop is handled, nothing after");
        assertEquals(List.of("started", "stopped"), records.events());
    }

    @Test
    void pingGetsFivePongsForARequestOfFive() {
        String pong = siebog.startAgent("Pong", "pong");
        String ping = siebog.startAgent("Ping", "ping", Map.of("pong", "pong@siebog"));
        String watch = siebog.startAgent("Recorder", "pingpong-watch");

        // Pong (stateless) answers a REQUEST with "pong".
        siebog.send(message("REQUEST").from(watch).to(pong).content("ping?").replyWith("direct").json());
        JsonObject answer = siebog.awaitRecords("pingpong-watch", "Pong answers", r -> r.messages().size() == 1).messages().get(0);
        assertEquals("INFORM", answer.getString("performative"));
        assertEquals("pong", answer.getString("content"));
        assertEquals(pong, answer.getString("sender"));
        assertEquals("direct", answer.getString("inReplyTo"));

        siebog.send(message("REQUEST").to(ping).content("5").json());
        SiebogApi.await("Ping counts 5 pongs", () -> "5".equals(askPing(ping, watch)));
        SiebogApi.sleep(300);
        assertEquals("5", askPing(ping, watch), "and not more");

        siebog.send(message("REQUEST").to(ping).content("3").json());
        SiebogApi.await("Ping counts 8 pongs", () -> "8".equals(askPing(ping, watch)));

        siebog.stopAgent(ping);
        siebog.stopAgent(pong);
        siebog.stopAgent(watch);
    }

    @Test
    void aRecorderEchoesRequestsAndAnswersAQueryWithWhatItGot() {
        String a = siebog.startAgent("Recorder", "echo-a");
        String b = siebog.startAgent("Recorder", "echo-b");

        siebog.send(message("REQUEST").from(b).to(a).content("hello").replyWith("r1").json());
        JsonObject echo = siebog.awaitRecords("echo-b", "the echo", r -> r.messages().size() == 1).messages().get(0);
        assertEquals("INFORM", echo.getString("performative"));
        assertEquals(a, echo.getString("sender"));
        assertEquals("hello", echo.getString("content"));
        assertEquals("r1", echo.getString("inReplyTo"));

        siebog.send(message("INFORM").to(a).content("world").json());
        siebog.send(message("QUERY_REF").from(b).to(a).replyWith("q1").json());
        JsonObject answer = siebog.awaitRecords("echo-b", "the answer", r -> r.messages().size() == 2).messages().get(1);
        assertEquals("q1", answer.getString("inReplyTo"));
        assertEquals("hello,world", answer.getString("content"));

        siebog.stopAgent(a);
        siebog.stopAgent(b);
    }

    @Test
    void anAgentWhoseHandlerThrowsGoesOnWithItsNextMessages() {
        String thrower = siebog.startAgent("Thrower", "thrower");
        String watch = siebog.startAgent("Recorder", "thrower-watch");

        for (String content : List.of("1", "boom", "2", "boom", "3")) {
            siebog.send(message("REQUEST").from(watch).to(thrower).content(content).json());
        }
        Records seen = siebog.awaitRecords("thrower", "all five handled", r -> r.messages().size() == 5);
        assertEquals(List.of("1", "boom", "2", "boom", "3"), seen.contents());
        assertTrue(siebog.agents().containsKey(thrower), "the thrower is still running");

        // Still the same bean (a stateful agent that threw was not discarded by the container), still answering.
        siebog.send(message("REQUEST").from(watch).to(thrower).content("4").json());
        Records answers = siebog.awaitRecords("thrower-watch", "the answer after the failures", r -> r.contents().contains("4"));
        assertEquals(List.of("1", "2", "3", "4"), answers.contents(), "answers, in order, none to a failed message");

        siebog.stopAgent(thrower);
        siebog.stopAgent(watch);
        assertEquals(List.of("started", "stopped"), siebog.records("thrower").events());
    }

    @Test
    void anAgentWhoseHandlerThrowsAnErrorGoesOnToo() {
        String thrower = siebog.startAgent("Thrower", "error-thrower");
        String watch = siebog.startAgent("Recorder", "error-thrower-watch");

        for (String content : List.of("1", "error", "2")) {
            siebog.send(message("REQUEST").from(watch).to(thrower).content(content).json());
        }
        assertEquals(List.of("1", "error", "2"),
                siebog.awaitRecords("error-thrower", "all three handled", r -> r.messages().size() == 3).contents());
        assertEquals(List.of("1", "2"),
                siebog.awaitRecords("error-thrower-watch", "two answers", r -> r.messages().size() == 2).contents());

        siebog.stopAgent(thrower);
        siebog.stopAgent(watch);
        assertEquals(List.of("started", "stopped"), siebog.records("error-thrower").events());
    }

    /** Asks Ping for its pong count (QUERY_REF answered to {@code watch}). */
    private String askPing(String ping, String watch) {
        String question = "q-" + System.nanoTime();
        siebog.send(message("QUERY_REF").from(watch).to(ping).replyWith(question).json());
        Records records = siebog.awaitRecords("pingpong-watch", "Ping answers " + question, r -> r.messages().stream()
                .anyMatch(m -> question.equals(m.getString("inReplyTo", null))));
        return records.messages().stream().filter(m -> question.equals(m.getString("inReplyTo", null)))
                .findFirst().orElseThrow().getString("content");
    }

    private String theOnlyNode() {
        Reply nodes = siebog.get("nodes");
        assertEquals(200, nodes.status(), nodes::toString);
        assertEquals(1, nodes.array().size(), nodes::toString);
        JsonObject node = nodes.array().getJsonObject(0);
        assertEquals(Set.of("name", "address", "agents", "health"), node.keySet(), node::toString);
        assertEquals(Set.of("heapUsedBytes", "heapMaxBytes", "cpuLoad", "devices", "admittedPerSecond", "deliveredPerSecond",
                "mailboxBacklog", "replicationLagBytes", "uptimeMillis"), node.getJsonObject("health").keySet(), node::toString);
        return node.getString("name");
    }
}
