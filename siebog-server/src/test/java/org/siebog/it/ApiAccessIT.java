package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Records;
import org.siebog.it.SiebogApi.Reply;

/**
 * Who may call what (docs/security.md): every endpoint of the REST API, called without credentials,
 * with a wrong password, as an account with none of Siebog's roles, and as each role. A refusal is
 * 401 with the Basic challenge (no or wrong credentials) or 403 (a role that may not), always with
 * the contract's JSON error, and it changes nothing: no agent started or stopped, no message
 * delivered to the witness the messages are addressed to.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ApiAccessIT {

    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final SiebogApi AS_ADMIN = SiebogApi.testServer();

    @Deployment(name = "siebog", order = 1, testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    /** The examples beside it, as ./siebog run deploys them: the Sender/Receiver runs' endpoints are the API's too. */
    @Deployment(name = "examples", order = 2, testable = false)
    static WebArchive examples() {
        return SiebogDeployment.examples();
    }

    enum Caller {
        ANONYMOUS, WRONG_PASSWORD, NO_ROLE, VIEWER, USER, ADMIN;

        SiebogApi api() {
            return switch (this) {
                case ANONYMOUS -> AS_ADMIN.anonymous();
                case WRONG_PASSWORD -> AS_ADMIN.withLogin("admin", "not-the-password");
                case NO_ROLE -> AS_ADMIN.as("nobody");
                case VIEWER -> AS_ADMIN.as("viewer");
                case USER -> AS_ADMIN.as("user");
                case ADMIN -> AS_ADMIN;
            };
        }
    }

    private static final Set<Caller> READERS = EnumSet.of(Caller.VIEWER, Caller.USER, Caller.ADMIN);
    private static final Set<Caller> POSTERS = EnumSet.of(Caller.USER, Caller.ADMIN);
    private static final Set<Caller> ADMINS = EnumSet.of(Caller.ADMIN);

    /** An endpoint, the callers it lets through, and how to call it (against the witness {@code w}). */
    private record Endpoint(String name, Set<Caller> allowed, Function<Call, Reply> call) {
    }

    /** One call's context: who calls, and the witness Recorder the call may address. */
    private record Call(SiebogApi api, String witness) {
    }

    private static List<Endpoint> endpoints() {
        return List.of(
                new Endpoint("GET /agent-classes", READERS, c -> c.api.get("agent-classes")),
                new Endpoint("GET /agents", READERS, c -> c.api.get("agents")),
                new Endpoint("GET /agents/{aid}", READERS, c -> c.api.get("agents/" + c.witness)),
                new Endpoint("GET /nodes", READERS, c -> c.api.get("nodes")),
                new Endpoint("GET /nodes/here", READERS, c -> c.api.get("nodes/here")),
                new Endpoint("GET /nodes/here/agents", READERS, c -> c.api.get("nodes/here/agents")),
                new Endpoint("GET /metrics", READERS, c -> c.api.get("metrics")),
                new Endpoint("GET /events", READERS, c -> c.api.getStream("events")),
                new Endpoint("GET /me", READERS, c -> c.api.get("me")),
                new Endpoint("GET /sniffer", ADMINS, c -> c.api.getStream("sniffer?agent=" + c.witness)),
                new Endpoint("GET /devices", READERS, c -> c.api.get("devices")),
                new Endpoint("GET /services", READERS, c -> c.api.get("services?type=none")),
                new Endpoint("GET /topics", READERS, c -> c.api.get("topics")),
                new Endpoint("GET /topics/{topic}", READERS, c -> c.api.get("topics/none")),
                new Endpoint("GET /siebog-examples/api/sender-receiver/runs/{id}", READERS,
                        c -> c.api.examples().get("sender-receiver/runs/none")),
                new Endpoint("POST /agents", ADMINS, c -> c.api.tryStartAgent("Recorder", "started-" + NAMES.incrementAndGet(), Map.of())),
                new Endpoint("DELETE /agents/{aid}", ADMINS, c -> c.api.delete("agents/" + c.witness)),
                new Endpoint("POST /agents/{aid}/move", ADMINS, c -> c.api.post("agents/" + c.witness + "/move", "{\"node\": \"nowhere\"}")),
                new Endpoint("POST /messages without a sender", POSTERS,
                        c -> c.api.trySend(message("INFORM").to(c.witness).content("posted").json())),
                new Endpoint("POST /messages?delayMs without a sender", POSTERS,
                        c -> c.api.trySend(message("INFORM").to(c.witness).content("posted").json(), 10)),
                new Endpoint("POST /messages to a topic without a sender", POSTERS,
                        c -> c.api.trySend(message("INFORM").to("topic:access@siebog").content("posted").json())),
                new Endpoint("POST /messages with a sender", ADMINS,
                        c -> c.api.trySend(message("INFORM").from(c.witness).to(c.witness).content("posted").json())),
                new Endpoint("POST /siebog-examples/api/sender-receiver/runs", ADMINS,
                        c -> c.api.examples().post("sender-receiver/runs", "{\"pairs\": 1, \"warmup\": 1, \"measured\": 1}")),
                new Endpoint("POST /siebog-examples/api/df-bench/runs", ADMINS,
                        c -> c.api.examples().post("df-bench/runs", "{\"registrations\": 0}")),
                new Endpoint("POST /siebog-examples/api/topic-bench/runs", ADMINS,
                        c -> c.api.examples().post("topic-bench/runs", "{\"subscribers\": 0}")));
    }

    @Test
    void meSaysWhoCallsAndWhichOfSiebogsRolesTheyHold() {
        for (Caller caller : List.of(Caller.VIEWER, Caller.USER, Caller.ADMIN)) {
            JsonObject me = caller.api().get("me").object();
            String role = "siebog-" + caller.name().toLowerCase(Locale.ROOT);
            assertEquals(caller == Caller.ADMIN ? "admin" : caller.name().toLowerCase(Locale.ROOT), me.getString("user"));
            assertEquals(List.of(role), me.getJsonArray("roles").getValuesAs(JsonString::getString), me::toString);
        }
    }

    @TestFactory
    List<DynamicTest> everyEndpointAsEveryCaller() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Endpoint endpoint : endpoints()) {
            for (Caller caller : Caller.values()) {
                tests.add(DynamicTest.dynamicTest(endpoint.name + " as " + caller, () -> check(endpoint, caller)));
            }
        }
        return tests;
    }

    private static void check(Endpoint endpoint, Caller caller) {
        String witnessName = "access-witness-" + NAMES.incrementAndGet();
        String witness = AS_ADMIN.startAgent("Recorder", witnessName);
        Map<String, JsonObject> agentsBefore = AS_ADMIN.agents();

        Reply reply = endpoint.call.apply(new Call(caller.api(), witness));

        if (endpoint.allowed.contains(caller)) {
            assertNotEquals(401, reply.status(), () -> endpoint.name + " as " + caller + ": " + reply);
            assertNotEquals(403, reply.status(), () -> endpoint.name + " as " + caller + ": " + reply);
            assertTrue(reply.status() < 500, () -> endpoint.name + " as " + caller + ": " + reply);
        } else {
            boolean unauthenticated = caller == Caller.ANONYMOUS || caller == Caller.WRONG_PASSWORD;
            String error = reply.assertError(unauthenticated ? 401 : 403);
            if (unauthenticated) {
                assertEquals("Basic realm=\"Siebog\"", reply.header("WWW-Authenticate").orElse(null),
                        () -> "a 401 challenges for HTTP Basic: " + reply);
            }
            assertTrue(unauthenticated ? error.contains("login") || error.contains("password") : error.contains("siebog-"),
                    () -> "the refusal says why, for a person: " + error);
            assertEquals(agentsBefore, AS_ADMIN.agents(), () -> endpoint.name + " as " + caller + " started or stopped an agent");
            // Per-agent order: anything wrongly admitted before the flush is handled before it.
            AS_ADMIN.send(message("INFORM").to(witness).content("flush").json());
            Records seen = AS_ADMIN.awaitRecords(witnessName, "the flush arrives", r -> r.contents().contains("flush"));
            assertEquals(List.of("flush"), seen.contents(), () -> endpoint.name + " as " + caller + " delivered a message");
        }
        stopTheAgentsStartedHere();
    }

    /** So that the next call starts from an agent list that no stop still in progress will change. */
    private static void stopTheAgentsStartedHere() {
        List<String> classes = List.of("Recorder", "SenderReceiverRun", "Sender", "Receiver");
        classes.forEach(AS_ADMIN::stopAll);
        SiebogApi.await("the test's agents are gone",
                () -> AS_ADMIN.agents().values().stream().noneMatch(a -> classes.contains(a.getString("agentClass"))));
    }

    @Test
    void aRefusedRoleIsToldWhichRoleItNeeds() {
        String error = Caller.VIEWER.api().tryStartAgent("Recorder", "not-for-viewers", Map.of()).assertError(403);
        assertTrue(error.contains("siebog-admin"), error);
        String senderError = Caller.USER.api().trySend(message("INFORM").from("someone@siebog").to("someone@siebog").json())
                .assertError(403);
        assertTrue(senderError.contains("sender"), senderError);
    }

    @Test
    void failedLoginsAndAdminActionsAreAuditedWithoutThePassword() throws Exception {
        Path log = Path.of(System.getProperty("siebog.it.serverBaseDir"), "log", "server.log");
        int before = read(log).length();
        String password = "wrong-" + NAMES.incrementAndGet() + "-secret";
        AS_ADMIN.withLogin("mallory", password).get("agents").assertError(401);
        String started = AS_ADMIN.startAgent("Recorder", "audited-" + NAMES.incrementAndGet());
        Caller.USER.api().send(message("INFORM").to(started).content("traffic, not an action").json());
        AS_ADMIN.send(message("INFORM").from(started).to(started).content("in an agent's name").json());
        SiebogApi.await("the audit log names the failed login and the admin's actions", () -> {
            String text = read(log).substring(before);
            return text.contains("failed login: user 'mallory' from 127.0.0.1 on GET /siebog/api/agents")
                    && text.contains("action: user 'admin' from 127.0.0.1: POST /siebog/api/agents -> 201")
                    && text.contains("action: user 'admin' from 127.0.0.1: POST /siebog/api/messages -> 202");
        });
        String text = read(log).substring(before);
        assertFalse(text.contains(password), "no password in the log");
        assertFalse(text.contains("action: user 'user'"), "a user's message that speaks for no agent is traffic, not logged");
        AS_ADMIN.stopAgent(started);
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
