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
 * The examples' directory facilitator benchmark ({@code perf/df} drives it) at a small size: it
 * fills the directory, searches through {@code df@siebog} from its searchers, reports what it
 * measured, keeps the registrations for the next run, and removes them on request.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DfBenchIT {

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
    void aSmallRunSearchesTheRegistrationsItMadeAndRemovesThemOnRequest() {
        JsonObject first = run("{\"registrations\": 100, \"types\": 10, \"searchers\": 2, \"searches\": 10, \"limit\": 100}");
        assertEquals(20, first.getInt("searches"));
        assertEquals(10.0, first.getJsonNumber("entriesPerSearch").doubleValue(), "100 services of 10 types: 10 of each");
        assertTrue(first.getJsonNumber("loadSeconds").doubleValue() > 0, first::toString);
        assertTrue(first.getJsonNumber("p50Micros").longValue() > 0 && first.getJsonNumber("searchesPerSecond").longValue() > 0, first::toString);
        assertEquals(10, siebog.get("services?type=bench-3").array().size());
        assertEquals(4, siebog.agents().values().stream().filter(a -> a.getString("agentClass").equals("DfHolder")).count(), "100 / 32 holders");

        String node = siebog.get("nodes").array().getJsonObject(0).getString("name");
        JsonObject again = run("{\"registrations\": 100, \"types\": 10, \"searchers\": 1, \"searches\": 5, \"limit\": 3, \"searchersOn\": \""
                + node + "\"}");
        assertEquals(0.0, again.getJsonNumber("loadSeconds").doubleValue(), "the directory held them already");
        assertEquals(3.0, again.getJsonNumber("entriesPerSearch").doubleValue(), "at most the limit");
        assertEquals(0, siebog.agents().values().stream().filter(a -> a.getString("agentClass").equals("DfSearcher")).count());
        String nowhere = siebog.examples().post("df-bench/runs", "{\"registrations\": 100, \"types\": 10, \"searchersOn\": \"nowhere\"}")
                .assertError(400);
        assertTrue(nowhere.contains("there is no node 'nowhere'"), nowhere);

        run("{\"registrations\": 0}");
        assertEquals(0, siebog.get("services?type=bench-3").array().size());
        siebog.examples().post("df-bench/runs", "{\"searchers\": 0}").assertError(400);
        siebog.examples().post("df-bench/runs", "{\"searchersOn\": 7}").assertError(400);
    }

    private JsonObject run(String body) {
        Reply reply = siebog.examples().post("df-bench/runs", body);
        assertEquals(200, reply.status(), reply::toString);
        return reply.object();
    }
}
