package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

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
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentManager;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.MessageManager;
import org.siebog.api.Performative;
import org.siebog.api.TopicSubscription;
import org.siebog.api.Topics;
import org.siebog.api.UnknownAgentException;
import org.siebog.it.SiebogApi.Reply;
import org.siebog.it.agents.AgentRecords;

/**
 * Topics on one node, through their three doors: the {@link Topics} EJB, the FIPA agent
 * {@code topics@siebog} (asked over REST here) and {@code GET /api/topics}; publishing by
 * {@code POST /api/messages}, by the MessageManager and by an agent's own send. The multi-node suite
 * shows the message crossing the wire once per node, and failover.
 */
@ExtendWith(ArquillianExtension.class)
class TopicsIT {

    /** {@code siebog.topic.max-subscribers} on the test server (arquillian.xml). */
    private static final int MAX_SUBSCRIBERS = Integer.getInteger("siebog.it.maxTopicSubscribers", 8);

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(TopicsIT.class, SiebogApi.class);
    }

    @EJB(lookup = Topics.JNDI_NAME)
    Topics topics;

    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    @EJB(lookup = MessageManager.JNDI_NAME)
    MessageManager messages;

    @Inject
    AgentRecords records;

    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    void everySubscriberGetsEveryMessageInOrderAndEachGroupOneMemberOfIt() {
        AID a = agents.start("Recorder", "news-a", Map.of()).aid();
        AID b = agents.start("StatelessRecorder", "news-b", Map.of()).aid();
        List<AID> workers = IntStream.range(0, 3).mapToObj(i -> agents.start("Recorder", "news-worker-" + i, Map.of()).aid()).toList();
        topics.subscribe(a, "news", null);
        topics.subscribe(b, "news", null);
        workers.forEach(w -> topics.subscribe(w, "news", "workers"));
        assertEquals(5, topics.subscribers("news").size());
        assertEquals(List.of(new TopicSubscription("news", a, null)), topics.subscriptionsOf(a));

        AID news = Topics.topic("news", "siebog");
        for (int i = 0; i < 30; i++) {
            messages.post(ACLMessage.builder(Performative.INFORM).receiver(news).content("n" + i).build());
        }
        List<String> all = IntStream.range(0, 30).mapToObj(i -> "n" + i).toList();
        SiebogApi.await("every message at a and b", () -> contents("news-a").size() == 30 && contents("news-b").size() == 30);
        assertEquals(all, contents("news-a"), "in publish order");
        assertEquals(all, contents("news-b"));
        assertEquals(List.of("topic:news@siebog"), records.of("news-a").messages().get(0).receivers(), "a subscriber sees the topic");

        SiebogApi.await("every message at one worker", () -> workers.stream().mapToInt(w -> contents(w.name()).size()).sum() == 30);
        Set<String> dealt = new HashSet<>();
        for (AID w : workers) {
            List<String> got = contents(w.name());
            assertEquals(10, got.size(), () -> w + " got " + got + ": the members take turns");
            assertEquals(got.stream().sorted((x, y) -> Integer.compare(Integer.parseInt(x.substring(1)), Integer.parseInt(y.substring(1)))).toList(),
                    got, "each member's share in order");
            dealt.addAll(got);
        }
        assertEquals(Set.copyOf(all), dealt, "each message reached one worker");

        assertTrue(topics.unsubscribe(b, "news"));
        assertFalse(topics.unsubscribe(b, "news"));
        topics.subscribe(a, "news", "solo"); // moves a into a group of its own: it still gets everything
        messages.post(ACLMessage.builder(Performative.INFORM).receiver(news).content("late").build());
        SiebogApi.await("the late one at a", () -> contents("news-a").contains("late"));
        SiebogApi.sleep(300);
        assertFalse(contents("news-b").contains("late"), "not after unsubscribing");

        agents.stop(a);
        assertEquals(List.of(), topics.subscriptionsOf(a), "a stopped agent's subscriptions go with it");
        assertEquals(3, topics.subscribers("news").size());
        workers.forEach(agents::stop);
        agents.stop(b);
        assertEquals(List.of(), topics.subscribers("news"));
    }

    @Test
    void anAgentPublishesWithItsOwnSendAndAMessageNamingTwoTopicsArrivesOnce() {
        AID publisher = agents.start("Publisher", "publisher", Map.of()).aid();
        AID reader = agents.start("Recorder", "reader", Map.of()).aid();
        topics.subscribe(reader, "books", null);
        topics.subscribe(reader, "art", null);
        messages.post(ACLMessage.builder(Performative.REQUEST).receiver(publisher).content("20 books").build());
        List<String> expected = IntStream.range(0, 20).mapToObj(i -> "publisher-" + i).toList();
        SiebogApi.await("20 books", () -> contents("reader").size() == 20);
        assertEquals(expected, contents("reader"));

        messages.post(ACLMessage.builder(Performative.INFORM).receivers(List.of(Topics.topic("books", "siebog"), Topics.topic("art", "siebog"),
                reader)).content("both").build());
        SiebogApi.await("both", () -> contents("reader").contains("both"));
        SiebogApi.sleep(300);
        assertEquals(1, contents("reader").stream().filter("both"::equals).count(), "a receiver reached three ways gets it once");
        agents.stop(publisher);
        agents.stop(reader);
    }

    @Test
    void refusalsChangeNothing() {
        AID agent = agents.start("Recorder", "topics-refused", Map.of()).aid();
        for (String bad : List.of("", "a b", "a@b", "a/b", "x".repeat(195))) {
            InvalidAgentRequestException e = assertThrows(InvalidAgentRequestException.class, () -> topics.subscribe(agent, bad, null), bad);
            assertTrue(e.getMessage().contains("bad topic name"), e.getMessage());
        }
        topics.subscribe(agent, "x".repeat(194), null);
        assertThrows(InvalidAgentRequestException.class, () -> topics.subscribe(agent, "t", "a group"));
        assertThrows(UnknownAgentException.class, () -> topics.subscribe(AID.parse("nobody@siebog"), "t", null));
        assertEquals(List.of(), topics.subscribers("t"));

        for (int i = 1; i < 64; i++) {
            topics.subscribe(agent, "many-" + i, null);
        }
        InvalidAgentRequestException many = assertThrows(InvalidAgentRequestException.class, () -> topics.subscribe(agent, "one-too-many", null));
        assertTrue(many.getMessage().contains("siebog.topic.max-subscriptions-per-agent"), many.getMessage());
        topics.subscribe(agent, "many-1", "now-in-a-group"); // a change of group is no new subscription
        assertEquals(64, topics.subscriptionsOf(agent).size());

        List<AID> crowd = new ArrayList<>();
        for (int i = 0; i < MAX_SUBSCRIBERS; i++) {
            AID one = agents.start("StatelessRecorder", "crowd-" + i, Map.of()).aid();
            topics.subscribe(one, "crowded", null);
            crowd.add(one);
        }
        AID late = agents.start("StatelessRecorder", "crowd-late", Map.of()).aid();
        InvalidAgentRequestException full = assertThrows(InvalidAgentRequestException.class, () -> topics.subscribe(late, "crowded", null));
        assertTrue(full.getMessage().contains("siebog.topic.max-subscribers"), full.getMessage());
        assertEquals(MAX_SUBSCRIBERS, topics.subscribers("crowded").size());
        agents.stop(crowd.get(0));
        topics.subscribe(late, "crowded", null); // room again
        crowd.forEach(one -> {
            if (!one.equals(crowd.get(0))) {
                agents.stop(one);
            }
        });
        agents.stop(late);
        agents.stop(agent);
        assertEquals(List.of(), topics.subscriptionsOf(agent));
    }

    @Test
    @RunAsClient
    void restPublishesToATopicListsTopicsAndRefusesWhatItCannotDo() {
        String first = siebog.startAgent("Recorder", "rest-sub-1");
        String second = siebog.startAgent("Recorder", "rest-sub-2");
        assertEquals("INFORM", askTopics(first, "{\"action\": \"subscribe\", \"topic\": \"rest-news\"}").getString("performative"));
        assertEquals("INFORM", askTopics(second, "{\"action\": \"subscribe\", \"topic\": \"rest-news\", \"group\": \"g\"}")
                .getString("performative"));
        JsonObject listed = content(askTopics(second, "{\"action\": \"subscriptions\"}"));
        assertEquals(Json.createArrayBuilder().add(Json.createObjectBuilder().add("topic", "rest-news").add("group", "g")).build(),
                listed.getJsonArray("subscriptions"));

        Reply published = siebog.as("user").post("messages", message("INFORM").to("topic:rest-news@siebog").content("hello").json().toString());
        assertEquals(202, published.status(), published::toString);
        siebog.awaitRecords("rest-sub-1", "hello", r -> r.contents().equals(List.of("hello")));
        siebog.awaitRecords("rest-sub-2", "hello", r -> r.contents().equals(List.of("hello")));
        assertEquals(202, siebog.post("messages", message("INFORM").to("topic:nobody-listens@siebog").content("x").json().toString()).status(),
                "a topic without subscribers takes the message");
        siebog.post("messages", message("INFORM").to("topic:rest-news@elsewhere").content("x").json().toString()).assertError(404);
        siebog.post("messages?delayMs=10", message("INFORM").to("topic:rest-news@siebog").content("later").json().toString());
        siebog.awaitRecords("rest-sub-1", "later", r -> r.contents().equals(List.of("hello", "later")));

        Reply listing = siebog.as("viewer").get("topics");
        assertEquals(200, listing.status(), listing::toString);
        assertTrue(listing.array().contains(Json.createObjectBuilder().add("topic", "rest-news").add("subscribers", 2).build()), listing::toString);
        Reply subscribers = siebog.get("topics/rest-news?limit=1");
        assertEquals(List.of(first), subscribers.array().getValuesAs(JsonObject.class).stream().map(s -> s.getString("agent")).toList());
        assertTrue(subscribers.header("Link").isPresent(), "a second page");
        assertEquals(List.of(), siebog.get("topics/nobody-listens").array());
        siebog.get("topics?limit=0").assertError(400);

        JsonObject notSubscribed = askTopics(first, "{\"action\": \"unsubscribe\", \"topic\": \"other\"}");
        assertEquals("FAILURE", notSubscribed.getString("performative"));
        assertEquals(404, content(notSubscribed).getInt("status"));
        JsonObject badName = askTopics(first, "{\"action\": \"subscribe\", \"topic\": \"a b\"}");
        assertEquals("FAILURE", badName.getString("performative"));
        assertEquals(400, content(badName).getInt("status"));
        JsonObject noSender = askTopics(null, "{\"action\": \"subscribe\", \"topic\": \"t\"}");
        assertEquals(400, content(noSender).getInt("status"), noSender::toString);
        for (String garbage : List.of("not json", "{\"action\": \"publish\"}", "{\"action\": \"subscribe\"}", "{\"action\": \"subscribe\", \"topic\": 7}")) {
            JsonObject refused = askTopics(first, garbage);
            assertEquals("NOT_UNDERSTOOD", refused.getString("performative"), garbage);
            assertEquals(400, content(refused).getInt("status"));
        }
        assertEquals("INFORM", askTopics(first, "{\"action\": \"unsubscribe\", \"topic\": \"rest-news\"}").getString("performative"));
        assertEquals(1, siebog.get("topics/rest-news").array().size());
        siebog.stopAgent(first);
        siebog.stopAgent(second);
        assertEquals(List.of(), siebog.get("topics/rest-news").array());
    }

    @Test
    @RunAsClient
    void noAgentMayBeCalledTopicsOrLikeATopic() {
        siebog.tryStartAgent("Recorder", "topics", Map.of()).assertError(409);
        assertTrue(siebog.tryStartAgent("Recorder", "topic:news", Map.of()).assertError(400).contains("topics"));
    }

    private List<String> contents(String agent) {
        return records.of(agent).messages().stream().map(AgentRecords.Entry::content).toList();
    }

    private JsonObject askTopics(String sender, String content) {
        SiebogApi.Msg question = message("REQUEST").to("topics@siebog").content(content);
        Reply answer = siebog.post("messages?awaitReplyMs=10000", (sender == null ? question : question.from(sender)).json().toString());
        assertEquals(200, answer.status(), answer::toString);
        return answer.object();
    }

    private static JsonObject content(JsonObject message) {
        return Json.createReader(new StringReader(message.getString("content"))).readObject();
    }
}
