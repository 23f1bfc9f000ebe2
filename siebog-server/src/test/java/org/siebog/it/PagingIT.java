package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import jakarta.ejb.EJB;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.api.AID;
import org.siebog.api.AgentManager;
import org.siebog.it.SiebogApi.Reply;

/**
 * {@code GET /agents} in pages: 10,000 agents (started in the server, where it takes seconds) are
 * listed page by page, following each page's {@code Link: rel="next"}, while other agents of the
 * same class start and stop; every one of the 10,000 is listed exactly once, in AID order. Then
 * the filters, and the refusals of a bad limit or cursor.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PagingIT {

    private static final Logger LOG = Logger.getLogger(PagingIT.class.getName());
    private static final int AGENTS = 10_000;
    private static final String CLASS = "StatelessRecorder";
    private static final Pattern NEXT = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"?next\"?");

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(PagingIT.class, SiebogApi.class);
    }

    // In the server:
    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    // On the client:
    private final SiebogApi siebog = SiebogApi.testServer();

    private static String name(int i) {
        return String.format("paged-%05d", i);
    }

    @Test
    @Order(1)
    void tenThousandAgentsStart() {
        long began = System.nanoTime();
        IntStream.range(0, AGENTS).forEach(i -> agents.start(CLASS, name(i), Map.of(), null, null));
        LOG.info(String.format("%,d agents started in %.1f s", AGENTS, (System.nanoTime() - began) / 1e9));
    }

    @Test
    @Order(2)
    @RunAsClient
    void pagesListEveryAgentOnceWhileOthersStartAndStop() throws Exception {
        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicInteger churned = new AtomicInteger();
        Thread churn = new Thread(() -> {
            SiebogApi admin = SiebogApi.testServer();
            for (int i = 0; churning.get(); i++) {
                String aid = admin.startAgent(CLASS, "paged-churn-" + i);
                admin.delete("agents/" + aid);
                churned.incrementAndGet();
            }
        });
        churn.start();
        List<String> listed = new ArrayList<>();
        int pages = 0;
        try {
            Optional<String> next = Optional.of("agents?class=" + CLASS + "&limit=500");
            while (next.isPresent()) {
                Reply page = siebog.as("viewer").get(next.get());
                assertEquals(200, page.status(), () -> "page: " + page);
                List<String> aids = page.array().stream().map(a -> a.asJsonObject().getString("aid")).toList();
                assertTrue(aids.size() <= 500, "at most the limit");
                page.array().forEach(a -> assertEquals(CLASS, a.asJsonObject().getString("agentClass")));
                listed.addAll(aids);
                next = page.header("Link").map(NEXT::matcher).filter(Matcher::find).map(m -> m.group(1));
                pages++;
            }
        } finally {
            churning.set(false);
            churn.join();
        }
        LOG.info(pages + " pages, " + listed.size() + " agents listed while " + churned.get() + " others started and stopped");
        assertTrue(churned.get() > 0, "agents started and stopped while the pages were read");
        assertEquals(listed.size(), new HashSet<>(listed).size(), "no agent listed twice");
        assertEquals(listed.stream().sorted().toList(), listed, "in AID order");
        Set<String> expected = new HashSet<>();
        IntStream.range(0, AGENTS).forEach(i -> expected.add(SiebogApi.aid(name(i))));
        assertTrue(listed.containsAll(expected), "every one of the " + AGENTS + " agents that were there throughout");
        assertTrue(pages >= AGENTS / 500, "paged");
    }

    @Test
    @Order(3)
    @RunAsClient
    void filtersNarrowTheListing() {
        Reply byName = siebog.get("agents?name=PAGED-0999&limit=1000");
        assertEquals(200, byName.status(), byName::toString);
        List<String> aids = byName.array().stream().map(a -> a.asJsonObject().getString("aid")).toList();
        assertEquals(IntStream.range(9990, 10_000).mapToObj(i -> SiebogApi.aid(name(i))).toList(), aids,
                "a part of the AID, in any case");
        assertFalse(byName.header("Link").isPresent(), "the last page has no next link");
        JsonObject first = siebog.get("agents?class=" + CLASS + "&limit=1").array().getJsonObject(0);
        String location = first.getString("location");
        Reply here = siebog.get("agents?class=" + CLASS + "&location=" + location + "&limit=1000");
        here.array().forEach(a -> assertEquals(location, a.asJsonObject().getString("location")));
        assertEquals(0, siebog.get("agents?location=no-such-node&limit=10").array().size());
    }

    @Test
    @Order(4)
    @RunAsClient
    void aBadLimitOrCursorIsA400ThatSaysWhy() {
        for (String query : List.of("limit=0", "limit=1001", "limit=ten")) {
            String error = siebog.get("agents?" + query).assertError(400);
            assertTrue(error.contains("'limit' must be a whole number from 1 to 1000"), error);
        }
        String cursor = siebog.get("agents?limit=1&after=not*a*cursor").assertError(400);
        assertTrue(cursor.contains("follow the Link header"), cursor);
        String alone = siebog.get("devices?after=YQ").assertError(400);
        assertTrue(alone.contains("give 'limit' too"), alone);
        siebog.anonymous().get("agents?limit=10").assertError(401);
    }

    @Test
    @Order(5)
    void theAgentsStop() {
        IntStream.range(0, AGENTS).forEach(i -> agents.stop(AID.parse(SiebogApi.aid(name(i)))));
    }
}
