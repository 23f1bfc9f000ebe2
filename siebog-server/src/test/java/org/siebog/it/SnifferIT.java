package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

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

/**
 * {@code GET /api/sniffer} (docs/admin.md, "Sniffer"): an admin watches chosen agents or a conversation
 * and gets a copy of each message as it is admitted, after the recent ones; a watch of nothing, or of
 * too much, is refused with the reason. (That only admins may watch: ApiAccessIT.)
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SnifferIT {

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    private static boolean copyOf(SseClient.Event e, String content) {
        return e.name().equals("message") && content.equals(e.data().getJsonObject("message").getString("content", null));
    }

    @Test
    void anAdminSeesAnAgentsRecentMessagesThenEachNewOneWithWhereItWent() throws Exception {
        String name = "sniffed-" + UUID.randomUUID().toString().substring(0, 8);
        String responder = siebog.startAgent("Responder", name, Map.of());
        try {
            String before = "before-" + UUID.randomUUID();
            siebog.send(SiebogApi.message("INFORM").to(responder).content(before).json());
            try (SseClient sniffer = new SseClient(siebog, "sniffer?agent=" + responder, "admin")) {
                assertEquals(200, sniffer.status, sniffer.refusal);
                JsonObject recent = sniffer.await("the earlier message", e -> copyOf(e, before)).data();
                assertTrue(recent.getBoolean("recent"), recent::toString);

                String conversation = "c-" + UUID.randomUUID();
                siebog.send(SiebogApi.message("REQUEST").to(responder).from(SiebogApi.aid("it-sniffer-caller"))
                        .field("conversationId", conversation).content("ping").json());
                JsonObject request = sniffer.await("the request", e -> copyOf(e, "ping")).data();
                assertFalse(request.getBoolean("recent"));
                assertEquals(responder, request.getString("receiver"));
                assertEquals("it-node", request.getString("node"));
                assertEquals("it-node", request.getString("receiverLocation"));
                assertEquals(0, request.getInt("missed"));
                JsonObject message = request.getJsonObject("message");
                assertEquals("REQUEST", message.getString("performative"));
                assertEquals(conversation, message.getString("conversationId"));
                assertTrue(Math.abs(System.currentTimeMillis() - request.getJsonNumber("at").longValue()) < 60_000, request::toString);
            }
        } finally {
            siebog.stopAgent(responder);
        }
    }

    @Test
    void aConversationIsWatchedWhoeverTakesPartInIt() throws Exception {
        String responder = siebog.startAgent("Responder", "sniffed-c-" + UUID.randomUUID().toString().substring(0, 8), Map.of());
        String conversation = "c-" + UUID.randomUUID();
        try (SseClient sniffer = new SseClient(siebog, "sniffer?conversation=" + conversation, "admin")) {
            assertEquals(200, sniffer.status, sniffer.refusal);
            siebog.send(SiebogApi.message("INFORM").to(responder).content("outside the conversation").json());
            siebog.send(SiebogApi.message("INFORM").to(responder).field("conversationId", conversation).content("inside").json());
            SseClient.Event first = sniffer.await("a copy", e -> e.name().equals("message"));
            assertTrue(copyOf(first, "inside"), () -> "only the conversation's message: " + first);
        } finally {
            siebog.stopAgent(responder);
        }
    }

    @Test
    void aWatchOfNothingOrOfTooMuchIsRefusedWithItsReason() throws Exception {
        try (SseClient nothing = new SseClient(siebog, "sniffer", "admin")) {
            assertEquals(400, nothing.status);
            assertTrue(nothing.refusal.contains("at least one agent or conversation"), nothing.refusal);
        }
        StringBuilder many = new StringBuilder("sniffer?conversation=c0");
        for (int i = 1; i <= 32; i++) {
            many.append("&conversation=c").append(i);
        }
        try (SseClient tooMany = new SseClient(siebog, many.toString(), "admin")) {
            assertEquals(400, tooMany.status);
            assertTrue(tooMany.refusal.contains("at most 32"), tooMany.refusal);
        }
        try (SseClient badAid = new SseClient(siebog, "sniffer?agent=", "admin")) {
            assertEquals(400, badAid.status, badAid.refusal);
        }
    }

    @Test
    void aWatchAtTheBoundOf32AgentsAnd32ConversationsIsServed() throws Exception {
        StringBuilder most = new StringBuilder("sniffer?agent=a0");
        for (int i = 1; i < 32; i++) {
            most.append("&agent=a").append(i);
        }
        for (int i = 0; i < 32; i++) {
            most.append("&conversation=c").append(i);
        }
        try (SseClient atTheBound = new SseClient(siebog, most.toString(), "admin")) {
            assertEquals(200, atTheBound.status, atTheBound.refusal);
        }
    }

    /**
     * A node serves 16 sniffer streams (503 beyond, room again once one closes), and refused requests
     * take none of them. A stream whose client left counts until the node's next write to it finds it
     * gone (the keep-alive, every 15 s, at the latest): so this keeps its streams and tries for the rest
     * until all 16 are its own, and runs last, leaving the node time to drop them before other tests.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void aNodeServes16SnifferStreamsAndRefusedRequestsTakeNoneOfThem() throws Exception {
        String path = "sniffer?agent=" + SiebogApi.aid("anyone");
        for (int i = 0; i < 20; i++) {
            try (SseClient viewer = new SseClient(siebog, path, "viewer"); SseClient nothing = new SseClient(siebog, "sniffer", "admin")) {
                assertEquals(403, viewer.status);
                assertEquals(400, nothing.status);
            }
        }
        List<SseClient> open = new ArrayList<>();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            SseClient refused;
            while (true) {
                SseClient attempt = new SseClient(siebog, path, "admin");
                if (attempt.status == 200) {
                    open.add(attempt);
                    assertTrue(open.size() <= 16, "more than 16 sniffer streams served");
                    continue;
                }
                refused = attempt;
                if (open.size() == 16 || System.nanoTime() > until) {
                    break;
                }
                Thread.sleep(2_000); // earlier tests' departed streams still count: wait for the node to find them gone
            }
            assertEquals(16, open.size(), "16 streams of this test's own, the refused requests holding none");
            assertEquals(503, refused.status, refused.refusal);
            assertTrue(refused.refusal.contains("16 sniffer streams"), refused.refusal);

            open.remove(0).close();
            SiebogApi.await("room for a sniffer stream once one closed", () -> {
                try (SseClient again = new SseClient(siebog, path, "admin")) {
                    return again.status == 200;
                } catch (Exception e) {
                    return false;
                }
            });
        } finally {
            open.forEach(SseClient::close);
            Thread.sleep(TimeUnit.SECONDS.toMillis(35)); // two keep-alives: the node drops them before other tests need a stream
        }
    }
}
