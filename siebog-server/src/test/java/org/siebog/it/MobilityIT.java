package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.aid;
import static org.siebog.it.SiebogApi.message;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Reply;

import jakarta.json.JsonObject;

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

    private Reply move(String agent, String body) {
        return siebog.post("agents/" + agent + "/move", body);
    }
}
