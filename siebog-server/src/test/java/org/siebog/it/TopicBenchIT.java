package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * The examples' topic fan-out benchmark ({@code perf/topics} drives it) at a small size: both
 * modes deliver every message to every subscriber (the run checks each one's count), the
 * subscribers are kept for the next run and stopped on request.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TopicBenchIT {

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
    void bothModesDeliverEveryMessageToEverySubscriberAndTheSubscribersGoOnRequest() {
        JsonObject topic = run("{\"mode\": \"topic\", \"subscribers\": 6, \"messages\": 20, \"window\": 4}");
        assertEquals(20, topic.getInt("messages"));
        assertTrue(topic.getJsonNumber("deliveredPerSecond").longValue() > 0, topic::toString);
        assertEquals(6, topic.getJsonObject("perNode").getInt("it-node"), topic::toString);
        assertEquals(6, siebog.get("topics/topic-bench").array().size());

        JsonObject sends = run("{\"mode\": \"sends\", \"subscribers\": 6, \"messages\": 20, \"window\": 4}");
        assertEquals(0.0, sends.getJsonNumber("setupSeconds").doubleValue(), 0.5, "the subscribers were there already");
        assertTrue(sends.getJsonNumber("deliveredPerSecond").longValue() > 0, sends::toString);

        run("{\"subscribers\": 0}");
        assertEquals(0, siebog.get("topics/topic-bench").array().size());
        assertEquals(0, siebog.agents().keySet().stream().filter(aid -> aid.startsWith("topic-bench-")).count());
        siebog.examples().post("topic-bench/runs", "{\"mode\": \"broadcast\"}").assertError(400);
        siebog.examples().post("topic-bench/runs", "{\"subscribers\": -1}").assertError(400);
    }

    private JsonObject run(String body) {
        Reply reply = siebog.examples().post("topic-bench/runs", body);
        assertEquals(200, reply.status(), reply::toString);
        return reply.object();
    }
}
