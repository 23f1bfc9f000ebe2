package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A small client of Siebog's public REST API (and of the test deployment's {@code /api/it} resource),
 * as the tests use it: raw calls that return a {@link Reply} for asserting on errors, and checked
 * shortcuts ({@link #startAgent}, {@link #send}, ...) that fail the test when the call is refused.
 * It calls as the test server's {@code admin} unless told otherwise ({@link #as}, {@link #anonymous}):
 * the build makes one account per role with a random password in {@code target/it-credentials}
 * ({@code -Dsiebog.it.credentials}).
 */
public final class SiebogApi {

    public static final String PLATFORM = "siebog";
    public static final Duration PATIENCE = Duration.ofSeconds(30);

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private final URI api;
    /** The Authorization header's value, or null to call without credentials. */
    private final String authorization;

    private SiebogApi(URI api, String authorization) {
        this.api = api;
        this.authorization = authorization;
    }

    /** The API of the test server, {@code http://127.0.0.1:8080+offset/siebog/api/}, as its admin. */
    public static SiebogApi testServer() {
        return new SiebogApi(URI.create("http://127.0.0.1:" + Integer.getInteger("siebog.it.httpPort", 11080) + "/siebog/api/"), null)
                .as("admin");
    }

    /**
     * The examples' API beside this one ({@code /siebog-examples/api/}, siebog-examples' Sender/Receiver runs),
     * with the same credentials.
     */
    public SiebogApi examples() {
        return new SiebogApi(api.resolve("/siebog-examples/api/"), authorization);
    }

    /** The same API as one of the test accounts: {@code admin}, {@code user}, {@code viewer} or {@code nobody} (no Siebog role). */
    public SiebogApi as(String user) {
        return new SiebogApi(api, authorization(user));
    }

    /** The {@code Authorization} header of a test account, for a client of one's own. */
    public static String authorization(String user) {
        String password = testPasswords().getProperty(user);
        if (password == null) {
            throw new IllegalStateException("no test account '" + user + "' in " + credentialsFile());
        }
        return basic(user, password);
    }

    /** The same API with these credentials, right or wrong. */
    public SiebogApi withLogin(String user, String password) {
        return new SiebogApi(api, basic(user, password));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The same API without credentials. */
    public SiebogApi anonymous() {
        return new SiebogApi(api, null);
    }

    private static Path credentialsFile() {
        return Path.of(System.getProperty("siebog.it.credentials", "target/it-credentials"));
    }

    private static Properties testPasswords() {
        Properties passwords = new Properties();
        try (Reader in = Files.newBufferedReader(credentialsFile())) {
            passwords.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("the test accounts' passwords (made by the build's it-users step)", e);
        }
        return passwords;
    }

    public URI uri(String path) {
        return api.resolve(path);
    }

    /** {@code name@siebog}. */
    public static String aid(String name) {
        return name + "@" + PLATFORM;
    }

    // ---- raw HTTP ---------------------------------------------------------------------------------

    /** A response: status, headers and body as text (JSON parsed on demand). */
    public record Reply(int status, HttpHeaders headers, String body) {

        public JsonValue json() {
            try (var reader = Json.createReader(new StringReader(body))) {
                return reader.readValue();
            } catch (RuntimeException e) {
                throw new AssertionError("the body is not JSON: " + this, e);
            }
        }

        public JsonObject object() {
            return json().asJsonObject();
        }

        public JsonArray array() {
            return json().asJsonArray();
        }

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        /** Asserts the status and the contract's error body {@code {"error": "..."}}; returns the message. */
        public String assertError(int expectedStatus) {
            assertEquals(expectedStatus, status, () -> "status of " + this);
            assertTrue(header("Content-Type").orElse("").startsWith("application/json"), () -> "JSON error body in " + this);
            JsonObject error = object();
            assertEquals(List.of("error"), List.copyOf(error.keySet()), () -> "an error body has exactly 'error': " + this);
            String message = error.getString("error");
            assertFalse(message.isBlank(), () -> "the error says what went wrong: " + this);
            return message;
        }

        @Override
        public String toString() {
            return status + " " + (body.length() > 500 ? body.substring(0, 500) + "..." : body);
        }
    }

    public Reply get(String path) {
        return call(request(path).GET());
    }

    /**
     * A GET of a stream that does not end ({@code GET /events}): its status and headers, and its body only when
     * it is a refusal; an answered stream is closed at once.
     */
    public Reply getStream(String path) {
        try {
            var response = HTTP.send(request(path).header("Accept", "text/event-stream").GET().build(), BodyHandlers.ofInputStream());
            try (var body = response.body()) {
                String text = response.statusCode() == 200 ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8);
                return new Reply(response.statusCode(), response.headers(), text);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Reply delete(String path) {
        return call(request(path).DELETE());
    }

    public Reply post(String path, String json) {
        return post(path, BodyPublishers.ofString(json), "application/json");
    }

    public Reply post(String path, BodyPublisher body, String contentType) {
        return call(request(path).header("Content-Type", contentType).POST(body));
    }

    /** A JSON POST with further request headers, each value of a name sent as a header of its own. */
    public Reply post(String path, String json, Map<String, List<String>> headers) {
        HttpRequest.Builder request = request(path).header("Content-Type", "application/json").POST(BodyPublishers.ofString(json));
        headers.forEach((name, values) -> values.forEach(value -> request.header(name, value)));
        return call(request);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60));
        return authorization == null ? request : request.header("Authorization", authorization);
    }

    private static Reply call(HttpRequest.Builder request) {
        try {
            var response = HTTP.send(request.build(), BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- agents -----------------------------------------------------------------------------------

    public Reply tryStartAgent(String agentClass, String name, Map<String, String> args) {
        JsonObjectBuilder argsJson = Json.createObjectBuilder();
        args.forEach(argsJson::add);
        return post("agents", Json.createObjectBuilder()
                .add("agentClass", agentClass).add("name", name).add("args", argsJson).build().toString());
    }

    /** Starts an agent, asserting 201; returns its AID. */
    public String startAgent(String agentClass, String name, Map<String, String> args) {
        Reply reply = tryStartAgent(agentClass, name, args);
        assertEquals(201, reply.status(), () -> "starting " + agentClass + " " + name + ": " + reply);
        return reply.object().getString("aid");
    }

    public String startAgent(String agentClass, String name) {
        return startAgent(agentClass, name, Map.of());
    }

    /** {@code GET /agents} by AID. */
    public Map<String, JsonObject> agents() {
        Reply reply = get("agents");
        assertEquals(200, reply.status(), () -> "GET /agents: " + reply);
        Map<String, JsonObject> agents = new LinkedHashMap<>();
        reply.array().forEach(a -> agents.put(a.asJsonObject().getString("aid"), a.asJsonObject()));
        return agents;
    }

    /** Stops every agent of {@code agentClass} (client agents outlive their devices: tests stop their own). */
    public void stopAll(String agentClass) {
        agents().values().stream()
                .filter(a -> a.getString("agentClass").equals(agentClass))
                .forEach(a -> delete("agents/" + a.getString("aid")));
    }

    /** {@code GET /agent-classes} as name → kind. */
    public Map<String, String> agentClasses() {
        Reply reply = get("agent-classes");
        assertEquals(200, reply.status(), () -> "GET /agent-classes: " + reply);
        Map<String, String> classes = new LinkedHashMap<>();
        reply.array().forEach(c -> classes.put(c.asJsonObject().getString("name"), c.asJsonObject().getString("kind")));
        return classes;
    }

    /** Stops an agent, asserting 204, and waits until it has left the agent list. */
    public void stopAgent(String aid) {
        Reply reply = delete("agents/" + aid);
        assertEquals(204, reply.status(), () -> "DELETE agents/" + aid + ": " + reply);
        await(aid + " leaves the agent list", () -> !agents().containsKey(aid));
    }

    // ---- messages ---------------------------------------------------------------------------------

    public Reply trySend(JsonObject message) {
        return post("messages", message.toString());
    }

    public Reply trySend(JsonObject message, long delayMs) {
        return post("messages?delayMs=" + delayMs, message.toString());
    }

    /** {@code POST /messages} with an {@code Idempotency-Key}. */
    public Reply trySend(JsonObject message, String idempotencyKey) {
        return post("messages", message.toString(), Map.of("Idempotency-Key", List.of(idempotencyKey)));
    }

    /** Posts a message, asserting 202. */
    public void send(JsonObject message) {
        Reply reply = trySend(message);
        assertEquals(202, reply.status(), () -> "POST /messages " + message + ": " + reply);
    }

    /** Builds an ACL message in the contract's JSON form. */
    public static Msg message(String performative) {
        return new Msg(performative);
    }

    public static final class Msg {
        private final JsonObjectBuilder json = Json.createObjectBuilder();
        private final JsonArrayBuilder receivers = Json.createArrayBuilder();

        private Msg(String performative) {
            json.add("performative", performative);
        }

        public Msg to(String... aids) {
            for (String aid : aids) {
                receivers.add(aid);
            }
            return this;
        }

        public Msg from(String aid) {
            return field("sender", aid);
        }

        public Msg content(String content) {
            return field("content", content);
        }

        public Msg replyWith(String value) {
            return field("replyWith", value);
        }

        public Msg field(String name, String value) {
            json.add(name, value);
            return this;
        }

        public JsonObject json() {
            return json.add("receivers", receivers).build();
        }
    }

    // ---- the test agents' records -----------------------------------------------------------------

    /** What a test agent handled ({@code GET /api/it/records/{name}}). */
    public record Records(List<JsonObject> messages, List<String> events, int maxInFlight) {

        public List<String> contents() {
            return messages.stream().map(m -> m.getString("content", null)).toList();
        }

        public List<JsonObject> withPerformative(String performative) {
            return messages.stream().filter(m -> performative.equals(m.getString("performative"))).toList();
        }
    }

    public Records records(String agentName) {
        Reply reply = get("it/records/" + agentName);
        assertEquals(200, reply.status(), () -> "records of " + agentName + ": " + reply);
        JsonObject json = reply.object();
        return new Records(json.getJsonArray("messages").getValuesAs(JsonObject.class),
                json.getJsonArray("events").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList(),
                json.getInt("maxInFlight"));
    }

    /** Waits until {@code agentName}'s records satisfy {@code until}; returns them. */
    public Records awaitRecords(String agentName, String what, Predicate<Records> until) {
        Records[] last = new Records[1];
        await(agentName + ": " + what, () -> until.test(last[0] = records(agentName)), () -> "last seen " + last[0]);
        return last[0];
    }

    public void openGate(String agentName) {
        Reply reply = post("it/gates/" + agentName + "/open", "");
        assertEquals(204, reply.status(), () -> "opening the gate of " + agentName + ": " + reply);
    }

    // ---- waiting ----------------------------------------------------------------------------------

    public static void await(String what, BooleanSupplier condition) {
        await(what, condition, () -> "");
    }

    /** Polls {@code condition} until it holds, failing after {@link #PATIENCE}. */
    public static void await(String what, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out after " + PATIENCE.toSeconds() + " s waiting until " + what + "; " + state.get());
            }
            sleep(20);
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
