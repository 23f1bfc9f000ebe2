package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.aid;
import static org.siebog.it.SiebogApi.message;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

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
 * A move that cannot be made is refused with the reason, and changes nothing: the agent stays
 * where it is and goes on counting. (Moves between nodes, under load, are the three-node suite's:
 * {@code ClusterIT}.)
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MobilityIT {

    @Deployment(name = "siebog", order = 1, testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    @Deployment(name = "examples", order = 2, testable = false)
    static WebArchive examples() {
        return SiebogDeployment.examples();
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    void aMoveThatCannotBeMadeIsRefusedWithTheReasonAndChangesNothing() {
        String counter = siebog.startAgent("Counter", "stay-put");
        String node = siebog.get("agents/" + counter).object().getString("location");
        siebog.send(message("INFORM").to(counter).field("conversationId", "n").content("1").json());

        String unknown = move(counter, "{\"node\": \"nowhere\"}").assertError(400);
        assertTrue(unknown.contains("there is no node 'nowhere'") && unknown.contains(node), unknown);
        String here = move(counter, "{\"node\": \"" + node + "\"}").assertError(400);
        assertTrue(here.contains("is on " + node + " already"), here);
        String pong = siebog.startAgent("Pong", "stateless-stays");
        String stateless = move(pong, "{\"node\": \"" + node + "\"}").assertError(400);
        assertTrue(stateless.contains("only a stateful agent moves"), stateless);
        String nobody = move(aid("nobody-here"), "{\"node\": \"" + node + "\"}").assertError(404);
        assertTrue(nobody.contains("nobody-here"), nobody);

        move(counter, "{}").assertError(400);
        String extra = move(counter, "{\"node\": \"" + node + "\", \"device\": \"d-1\"}").assertError(400);
        assertTrue(extra.contains("device"), extra);
        move(counter, "[\"" + node + "\"]").assertError(400);
        move(counter, "{\"node\": 7}").assertError(400);

        // The agent asking to move itself to a node that is not there is refused as it asks.
        Reply refused = siebog.post("messages?awaitReplyMs=10000",
                message("REQUEST").to(counter).field("conversationId", "moves").content("move-to nowhere").json().toString());
        assertEquals(200, refused.status(), refused::toString);
        JsonObject answer = refused.object();
        assertEquals("REFUSE", answer.getString("performative"), answer::toString);
        assertTrue(answer.getString("content").contains("there is no node 'nowhere'"), answer::toString);

        assertEquals(node, siebog.get("agents/" + counter).object().getString("location"));
        siebog.send(message("INFORM").to(counter).field("conversationId", "n").content("2").json());
        Reply report = siebog.post("messages?awaitReplyMs=10000", message("QUERY_REF").to(counter).json().toString());
        assertEquals("handled=2 highest=2 gaps=0 repeats=0 outOfOrder=0", report.object().getString("content"));
        siebog.stopAgent(counter);
        siebog.stopAgent(pong);
    }

    /**
     * A client agent moves between devices through its saved state: asked by its own device (the
     * {@code move} frame), the node answers {@code moved}, ends it there with a {@code stop} that
     * says {@code moved} (no onStop), takes the device's last acknowledgements, and starts it on the
     * other device, which gets only what was not acknowledged; an admin moves it back over REST.
     * Moves that cannot be made are refused and change nothing.
     */
    @Test
    void aClientAgentMovesBetweenDevicesThroughItsSavedState() {
        try (TestDevice a = TestDevice.join(siebog, 10); TestDevice b = TestDevice.join(siebog, 10)) {
            String aid = a.startClientAgent(siebog, "TestClient", "roamer").getString("aid");
            try {
                for (int i = 1; i <= 3; i++) {
                    siebog.send(message("INFORM").to(aid).content("m" + i).json());
                    assertEquals("m" + i, a.next("deliver").getJsonObject("message").getString("content"));
                }
                a.send(Json.createObjectBuilder().add("op", "ack").add("aid", aid).add("seq", 1).build());

                // Refused, nothing changes: another device's agent, the device it is on, a device that is not there.
                b.send(Json.createObjectBuilder().add("op", "move").add("aid", aid).add("ref", 1).build());
                assertEquals(403, b.next("error").getInt("status"));
                a.send(Json.createObjectBuilder().add("op", "move").add("aid", aid).add("device", a.id()).add("ref", 2).build());
                JsonObject here = a.next("error");
                assertEquals(400, here.getInt("status"));
                assertTrue(here.getString("error").contains("already"), here::toString);
                String nowhere = move(aid, "{\"device\": \"d-00000000\"}").assertError(400);
                assertTrue(nowhere.contains("there is no device 'd-00000000'"), nowhere);
                String both = move(aid, "{\"node\": \"x\", \"device\": null}").assertError(400);
                assertTrue(both.contains("not both"), both);
                assertEquals(a.id(), siebog.get("agents/" + aid).object().getString("location"));

                // Its device asks; it handled m2 too, and says so before it ends the agent.
                a.send(Json.createObjectBuilder().add("op", "move").add("aid", aid).add("ref", 3).build());
                Map<String, JsonObject> frames = new HashMap<>(); // the answer and the stop, in either order
                for (int i = 0; i < 2; i++) {
                    JsonObject frame = a.next();
                    frames.put(frame.getString("op"), frame);
                }
                JsonObject moved = frames.get("moved");
                assertEquals(3, moved.getInt("ref"), frames::toString);
                assertEquals(b.id(), moved.getString("location"), "the node picks the other device");
                assertTrue(frames.get("stop").getBoolean("moved"), frames::toString);
                a.send(Json.createObjectBuilder().add("op", "ack").add("aid", aid).add("seq", 2).build());
                a.send(Json.createObjectBuilder().add("op", "stopped").add("aid", aid).build());
                assertEquals(aid, b.startAgent().getString("aid"));
                JsonObject redelivered = b.next("deliver");
                assertEquals("m3", redelivered.getJsonObject("message").getString("content"), "only what A had not acknowledged");
                siebog.send(message("INFORM").to(aid).content("m4").json());
                assertEquals("m4", b.next("deliver").getJsonObject("message").getString("content"));
                assertEquals(b.id(), siebog.get("agents/" + aid).object().getString("location"));

                // An admin moves it back; answered once A has started it.
                CompletableFuture<Reply> back = CompletableFuture.supplyAsync(
                        () -> move(aid, "{\"device\": \"" + a.id() + "\"}"));
                assertTrue(b.next("stop").getBoolean("moved"));
                b.send(Json.createObjectBuilder().add("op", "stopped").add("aid", aid).build());
                assertEquals(aid, a.startAgent().getString("aid"));
                Reply answered = back.join();
                assertEquals(200, answered.status(), answered::toString);
                assertEquals(a.id(), answered.object().getString("location"));
                assertEquals(List.of("m3", "m4"), List.of(a.next("deliver"), a.next("deliver")).stream()
                        .map(d -> d.getJsonObject("message").getString("content")).toList(), "B acknowledged neither");
            } finally {
                siebog.stopAgent(aid);
            }
        }
    }

    private Reply move(String agent, String body) {
        return siebog.post("agents/" + agent + "/move", body);
    }
}
