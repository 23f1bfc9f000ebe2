package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.api.AID;
import org.siebog.api.AgentManager;
import org.siebog.api.DirectoryFacilitator;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.ServiceDescription;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;
import org.siebog.api.UnknownAgentException;
import org.siebog.api.UnknownServiceException;
import org.siebog.it.SiebogApi.Reply;
import org.siebog.it.agents.AgentRecords;

/**
 * The directory facilitator through its three doors: the {@link DirectoryFacilitator} EJB (in the
 * server), the FIPA agent {@code df@siebog} (messages, asked over REST here) and
 * {@code GET /api/services}; its leases, its bounds, and an agent's entries going when it stops.
 */
@ExtendWith(ArquillianExtension.class)
class DirectoryFacilitatorIT {

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(DirectoryFacilitatorIT.class, SiebogApi.class);
    }

    @EJB(lookup = DirectoryFacilitator.JNDI_NAME)
    DirectoryFacilitator df;

    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    @Inject
    AgentRecords records;

    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    void registerSearchModifyDeregisterThroughTheEjb() {
        AID seller = agents.start("Recorder", "df-seller", Map.of()).aid();
        AID other = agents.start("Recorder", "df-other-seller", Map.of()).aid();
        ServiceDescription books = ServiceDescription.of("ejb-selling", "books").withProtocols("fipa-contract-net").withProperty("currency", "EUR");
        ServiceEntry registered = df.register(seller, books, null);
        assertNull(registered.expires());
        df.register(other, ServiceDescription.of("ejb-selling", "art"), Duration.ofMinutes(5));

        List<ServiceEntry> all = df.search(ServiceTemplate.ofType("ejb-selling"), 10);
        assertEquals(List.of(other, seller), all.stream().map(ServiceEntry::agent).toList(), "by agent: df-other-seller first");
        assertTrue(all.get(0).expires() != null);
        assertEquals(List.of(registered), df.search(ServiceTemplate.ofType("ejb-selling").withProtocols("fipa-contract-net"), 10));
        assertEquals(List.of(), df.search(ServiceTemplate.ofType("ejb-selling").withProperty("currency", "USD"), 10));
        assertEquals(List.of(registered), df.search(ServiceTemplate.ofType("ejb-selling"), all.get(0), 10), "the page after the first entry");

        df.modify(seller, books.withProperty("currency", "USD"), null);
        assertEquals(1, df.search(ServiceTemplate.ofType("ejb-selling").withProperty("currency", "USD"), 10).size());
        assertThrows(UnknownServiceException.class, () -> df.modify(seller, ServiceDescription.of("ejb-selling", "maps"), null));
        df.deregister(seller, "books");
        assertThrows(UnknownServiceException.class, () -> df.deregister(seller, "books"));
        assertEquals(List.of(other), df.search(ServiceTemplate.ofType("ejb-selling"), 10).stream().map(ServiceEntry::agent).toList());

        agents.stop(other);
        assertEquals(List.of(), df.search(ServiceTemplate.ofType("ejb-selling"), 10), "a stopped agent's entries go with it");
        agents.stop(seller);
    }

    @Test
    void refusalsChangeNothing() {
        AID agent = agents.start("Recorder", "df-refused", Map.of()).aid();
        assertThrows(UnknownAgentException.class, () -> df.register(AID.parse("nobody@siebog"), ServiceDescription.of("x", "y"), null));
        InvalidAgentRequestException lease = assertThrows(InvalidAgentRequestException.class,
                () -> df.register(agent, ServiceDescription.of("x", "y"), Duration.ofMillis(10)));
        assertTrue(lease.getMessage().contains("siebog.df.max-lease-ms"), lease.getMessage());
        InvalidAgentRequestException longLease = assertThrows(InvalidAgentRequestException.class,
                () -> df.register(agent, ServiceDescription.of("x", "y"), Duration.ofMillis(86_400_001)));
        assertTrue(longLease.getMessage().contains("from 1000 to 86400000 ms"), longLease.getMessage());
        df.register(agent, ServiceDescription.of("x", "a-day"), Duration.ofMillis(86_400_000));
        df.deregister(agent, "a-day");
        assertThrows(InvalidAgentRequestException.class, () -> df.register(agent, ServiceDescription.of("x", "y".repeat(1025)), null));
        assertThrows(InvalidAgentRequestException.class, () -> df.search(ServiceTemplate.any(), 1001));
        for (int i = 0; i < 32; i++) {
            df.register(agent, ServiceDescription.of("many", "service-" + i), null);
        }
        InvalidAgentRequestException many = assertThrows(InvalidAgentRequestException.class,
                () -> df.register(agent, ServiceDescription.of("many", "one-too-many"), null));
        assertTrue(many.getMessage().contains("siebog.df.max-services-per-agent"), many.getMessage());
        df.register(agent, ServiceDescription.of("many", "service-0").withProperty("renewed", "yes"), null); // a replacement is no new service
        assertEquals(32, df.search(ServiceTemplate.ofType("many"), 100).size());
        for (int i = 0; i < 32; i++) {
            df.subscribe(agent, ServiceTemplate.ofType("watched-" + i), null);
        }
        InvalidAgentRequestException subscriptions = assertThrows(InvalidAgentRequestException.class,
                () -> df.subscribe(agent, ServiceTemplate.ofType("one-too-many"), null));
        assertTrue(subscriptions.getMessage().contains("32 subscriptions"), subscriptions.getMessage());
        assertEquals(List.of(), df.search(ServiceTemplate.ofType("x"), 10));
        agents.stop(agent);
        assertEquals(List.of(), df.search(ServiceTemplate.ofType("many"), 100));
    }

    @Test
    void anEntryWhoseLeaseRunsOutIsGone() throws InterruptedException {
        AID agent = agents.start("Recorder", "df-leased", Map.of()).aid();
        df.register(agent, ServiceDescription.of("leased", "short"), Duration.ofSeconds(1));
        df.register(agent, ServiceDescription.of("leased", "long"), Duration.ofMinutes(1));
        assertEquals(2, df.search(ServiceTemplate.ofType("leased"), 10).size());
        Thread.sleep(1500);
        assertEquals(List.of("long"), df.search(ServiceTemplate.ofType("leased"), 10).stream().map(e -> e.service().name()).toList());
        assertThrows(UnknownServiceException.class, () -> df.deregister(agent, "short"));
        df.register(agent, ServiceDescription.of("leased", "short"), Duration.ofMinutes(1)); // registering again renews it
        assertEquals(2, df.search(ServiceTemplate.ofType("leased"), 10).size());
        agents.stop(agent);
    }

    @Test
    void aSubscriberHearsOfEachChangeToTheServicesItWatchesUntilItUnsubscribes() {
        AID watcher = agents.start("Recorder", "df-watcher", Map.of()).aid();
        AID seller = agents.start("Recorder", "df-watched", Map.of()).aid();
        String id = df.subscribe(watcher, ServiceTemplate.ofType("watched"), Duration.ofMinutes(5));
        df.register(seller, ServiceDescription.of("watched", "a"), null);
        df.register(seller, ServiceDescription.of("unwatched", "b"), null);
        df.modify(seller, ServiceDescription.of("watched", "a").withProperty("k", "v"), null);
        df.deregister(seller, "a");
        df.register(seller, ServiceDescription.of("watched", "short"), Duration.ofSeconds(1));

        // The expiry comes when the cache's reaper finds it: within 5 s of the lease's end (cluster-profile.cli).
        SiebogApi.await("five notifications", () -> records.of("df-watcher").messages().size() >= 5);
        List<AgentRecords.Entry> heard = records.of("df-watcher").messages();
        assertEquals(List.of("registered a", "modified a", "deregistered a", "registered short", "expired short"),
                heard.stream().map(m -> {
                    JsonObject content = Json.createReader(new StringReader(m.content())).readObject();
                    return content.getString("change") + " " + content.getJsonObject("entry").getJsonObject("service").getString("name");
                }).toList());
        heard.forEach(m -> {
            assertEquals("INFORM", m.performative());
            assertEquals("df@siebog", m.sender());
            assertEquals(id, m.conversationId());
        });

        assertTrue(df.unsubscribe(watcher, id));
        assertFalse(df.unsubscribe(watcher, id));
        df.register(seller, ServiceDescription.of("watched", "unheard"), null);
        SiebogApi.sleep(500);
        assertEquals(5, records.of("df-watcher").messages().size(), "no notification after unsubscribing");
        agents.stop(seller);
        agents.stop(watcher);
    }

    @Test
    @RunAsClient
    void theFipaAgentDfRegistersForTheSenderAndSearchesAndAnswersWhatItCannotDo() {
        String seller = siebog.startAgent("Recorder", "df-by-message");
        JsonObject registered = askDf(seller, "{\"action\": \"register\", \"service\": {\"type\": \"msg-selling\", \"name\": \"books\","
                + " \"protocols\": [\"fipa-contract-net\"]}, \"leaseMs\": 60000}");
        assertEquals("INFORM", registered.getString("performative"));
        assertEquals("df@siebog", registered.getString("sender"));
        assertEquals("siebog-df", registered.getString("ontology"));
        JsonObject entry = content(registered).getJsonObject("entry");
        assertEquals(seller, entry.getString("agent"));
        assertTrue(entry.containsKey("expires"));

        JsonObject found = content(askDf(null, "{\"action\": \"search\", \"template\": {\"type\": \"msg-selling\"}, \"limit\": 5}"));
        assertEquals(1, found.getJsonArray("entries").size());
        assertEquals(entry, found.getJsonArray("entries").getJsonObject(0));
        assertFalse(found.getBoolean("more"));

        Reply services = siebog.get("services?type=msg-selling&protocol=fipa-contract-net");
        assertEquals(200, services.status(), services::toString);
        assertEquals(entry, services.array().getJsonObject(0));

        String other = siebog.startAgent("Recorder", "df-not-the-seller");
        JsonObject notYours = askDf(other, "{\"action\": \"deregister\", \"name\": \"books\"}");
        assertEquals("FAILURE", notYours.getString("performative"));
        assertEquals(404, content(notYours).getInt("status"), "an agent deregisters its own services only");
        assertEquals(1, siebog.get("services?type=msg-selling").array().size(), "the seller's entry is still there");
        siebog.stopAgent(other);

        JsonObject gone = askDf(seller, "{\"action\": \"deregister\", \"name\": \"books\"}");
        assertEquals("INFORM", gone.getString("performative"), gone::toString);
        JsonObject again = askDf(seller, "{\"action\": \"deregister\", \"name\": \"books\"}");
        assertEquals("FAILURE", again.getString("performative"));
        assertEquals(404, content(again).getInt("status"));
        assertTrue(content(again).getString("error").contains("has no service named 'books'"), again::toString);

        JsonObject noSender = askDf(null, "{\"action\": \"register\", \"service\": {\"type\": \"t\", \"name\": \"n\"}}");
        assertEquals("FAILURE", noSender.getString("performative"));
        assertEquals(400, content(noSender).getInt("status"));
        for (String garbage : List.of("not json", "{\"action\": \"sell\"}", "{\"action\": \"register\"}")) {
            JsonObject refused = askDf(seller, garbage);
            assertEquals("NOT_UNDERSTOOD", refused.getString("performative"), garbage);
            assertEquals(400, content(refused).getInt("status"));
        }
        assertEquals(List.of(), siebog.get("services?type=t").array());

        JsonObject subscribed = askDf(seller, "{\"action\": \"subscribe\", \"template\": {\"type\": \"msg-selling\"}}");
        assertTrue(content(subscribed).getString("subscription").startsWith("df-subscription-"), subscribed::toString);
        JsonObject unsubscribed = askDf(seller, "{\"action\": \"unsubscribe\", \"subscription\": \""
                + content(subscribed).getString("subscription") + "\"}");
        assertEquals("INFORM", unsubscribed.getString("performative"), unsubscribed::toString);
        JsonObject unknown = askDf(seller, "{\"action\": \"unsubscribe\", \"subscription\": \"df-subscription-none\"}");
        assertEquals(404, content(unknown).getInt("status"), unknown::toString);
        siebog.stopAgent(seller);
    }

    @Test
    @RunAsClient
    void servicesArePagedWithALinkAndBadQueriesAre400() {
        String agent = siebog.startAgent("Recorder", "df-paged");
        for (int i = 0; i < 5; i++) {
            Reply r = siebog.post("messages?awaitReplyMs=10000", message("REQUEST").to("df@siebog").from(agent)
                    .content("{\"action\": \"register\", \"service\": {\"type\": \"paged\", \"name\": \"s" + i + "\"}}").json().toString());
            assertEquals(200, r.status(), r::toString);
        }
        Reply first = siebog.get("services?type=paged&limit=2");
        assertEquals(List.of("s0", "s1"), first.array().getValuesAs(JsonObject.class).stream()
                .map(e -> e.getJsonObject("service").getString("name")).toList());
        String next = first.header("Link").orElseThrow();
        String url = next.substring(next.indexOf("services?"), next.indexOf('>'));
        Reply second = siebog.get(url);
        assertEquals(List.of("s2", "s3"), second.array().getValuesAs(JsonObject.class).stream()
                .map(e -> e.getJsonObject("service").getString("name")).toList());
        assertEquals(5, siebog.get("services?type=paged").array().size(), "100 by default");

        siebog.get("services?limit=0").assertError(400);
        siebog.get("services?limit=1001").assertError(400);
        siebog.get("services?after=!!").assertError(400);
        assertTrue(siebog.get("services?property=nokey").assertError(400).contains("key=value"));
        assertTrue(siebog.get("services?type=" + "x".repeat(1025)).assertError(400).contains("1024"));
        siebog.stopAgent(agent);
        assertEquals(List.of(), siebog.get("services?type=paged").array());
    }

    @Test
    @RunAsClient
    void noAgentMayBeCalledDf() {
        siebog.tryStartAgent("Recorder", "df", Map.of()).assertError(409);
    }

    private JsonObject askDf(String sender, String content) {
        SiebogApi.Msg question = message("REQUEST").to("df@siebog").content(content);
        Reply answer = siebog.post("messages?awaitReplyMs=10000", (sender == null ? question : question.from(sender)).json().toString());
        assertEquals(200, answer.status(), answer::toString);
        return answer.object();
    }

    private static JsonObject content(JsonObject message) {
        return Json.createReader(new StringReader(message.getString("content"))).readObject();
    }
}
