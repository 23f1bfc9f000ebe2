package org.siebog.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.Authenticator;
import java.net.PasswordAuthentication;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;

/** One node's REST API, as a test uses it. */
final class ClusterApi {

    record Reply(int status, String body) {
        JsonObject object() {
            return (JsonObject) json();
        }

        JsonArray array() {
            return (JsonArray) json();
        }

        private JsonStructure json() {
            return Json.createReader(new StringReader(body)).read();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    /** As admin, with the password ./siebog run made (or SIEBOG_ADMIN_PASSWORD, as the launcher takes it). */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
            .authenticator(new Authenticator() {
                @Override
                protected PasswordAuthentication getPasswordAuthentication() {
                    return new PasswordAuthentication("admin", adminPassword().toCharArray());
                }
            })
            .build();

    static String adminPassword() {
        String password = System.getenv("SIEBOG_ADMIN_PASSWORD");
        if (password != null && !password.isEmpty()) {
            return password;
        }
        Properties stored = new Properties();
        Path root = Path.of(System.getProperty("siebog.root", "..")).toAbsolutePath().normalize();
        try (Reader in = Files.newBufferedReader(root.resolve("target/siebog-credentials"))) {
            stored.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return stored.getProperty("admin", "");
    }

    private final String base;

    ClusterApi(String base) {
        this.base = base;
    }

    Reply get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + "/" + path)).GET());
    }

    /** A GET that fails (an IOException) when no answer came within {@code timeout}. */
    Reply get(String path, Duration timeout) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + "/" + path)).GET(), timeout);
    }

    Reply delete(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + "/" + path)).DELETE());
    }

    Reply post(String path, String json) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + "/" + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Starts an agent; {@code node} may be null (the placement selector chooses). Returns the node it landed on. */
    String start(String agentClass, String name, String node, String argsJson) throws IOException, InterruptedException {
        String body = "{\"agentClass\":\"" + agentClass + "\",\"name\":\"" + name + "\""
                + (node == null ? "" : ",\"node\":\"" + node + "\"")
                + (argsJson == null ? "" : ",\"args\":" + argsJson) + "}";
        Reply reply = post("agents", body);
        if (reply.status() != 201) {
            throw new AssertionError("starting " + name + ": " + reply);
        }
        return reply.object().getString("location");
    }

    /** What {@code GET /events} streams in its first {@code listen} (the node's recent events first), as the events' JSON data. */
    List<JsonObject> events(Duration listen) throws IOException, InterruptedException {
        return stream("events", listen);
    }

    /** What the Server-Sent Events stream {@code path} sends in its first {@code listen}, as the events' JSON data. */
    List<JsonObject> stream(String path, Duration listen) throws IOException, InterruptedException {
        HttpResponse<Stream<String>> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/" + path))
                .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofLines());
        if (response.statusCode() != 200) {
            throw new AssertionError("GET /" + path + ": " + response.statusCode());
        }
        List<JsonObject> events = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try {
                response.body().filter(line -> line.startsWith("data:"))
                        .forEach(line -> events.add(Json.createReader(new StringReader(line.substring(5).strip())).readObject()));
            } catch (RuntimeException closed) {
                // closed below
            }
        });
        reader.setDaemon(true);
        reader.start();
        Thread.sleep(listen.toMillis());
        response.body().close();
        return List.copyOf(events);
    }

    /** Posts a message; returns the HTTP status. */
    int tell(String performative, String receiver, String conversationId, String content) throws IOException, InterruptedException {
        Reply reply = post("messages", message(performative, receiver, conversationId, content));
        if (reply.status() != 202) {
            System.err.println("POST /messages to " + receiver + ": " + reply); // why, for the test that fails on it
        }
        return reply.status();
    }

    /**
     * Posts a message under an {@code Idempotency-Key}, waiting at most {@code timeout} for the answer:
     * returns the HTTP status, or 0 when none came in time (posting again under the same key is safe).
     */
    int tellOnce(String receiver, String content, String key, Duration timeout) throws InterruptedException {
        return postWithin("messages", message("INFORM", receiver, "history", content), key, timeout);
    }

    /**
     * Posts {@code json} to {@code path} (under {@code key} as its {@code Idempotency-Key}, unless null),
     * waiting at most {@code timeout}: the HTTP status, or 0 when no answer came in time.
     */
    int postWithin(String path, String json, String key, Duration timeout) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/" + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).timeout(timeout);
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException noAnswer) { // timed out, or the connection failed: the client cannot tell whether it was admitted
            return 0;
        }
    }

    /** Asks an agent (a QUERY_REF) and returns the content of its answer. */
    String ask(String receiver, long timeoutMs) throws IOException, InterruptedException {
        Reply reply = post("messages?awaitReplyMs=" + timeoutMs, message("QUERY_REF", receiver, null, null));
        if (reply.status() != 200) {
            throw new AssertionError("asking " + receiver + ": " + reply);
        }
        return reply.object().getString("content");
    }

    /** Where the directory places an agent: a node's name (or a device's id). */
    String locationOf(String aid) {
        try {
            return get("agents/" + aid).object().getString("location");
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code GET /nodes/here}: the node as it sees itself (acting, view, nodes). */
    JsonObject here() throws IOException, InterruptedException {
        return get("nodes/here").object();
    }

    /**
     * The names of the nodes {@code GET /nodes} lists, sorted; none while the node has no list to read
     * (503: left behind by a split, it dropped its copies of the caches and has not rejoined yet).
     */
    List<String> memberNames() throws IOException, InterruptedException {
        Reply nodes = get("nodes");
        if (nodes.status() == 503) {
            return List.of();
        }
        return nodes.array().stream().map(v -> ((JsonObject) v).getString("name")).sorted().toList();
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String message(String performative, String receiver, String conversationId, String content) {
        var json = Json.createObjectBuilder().add("performative", performative)
                .add("receivers", Json.createArrayBuilder().add(receiver));
        if (conversationId != null) {
            json.add("conversationId", conversationId);
        }
        if (content != null) {
            json.add("content", content);
        }
        return json.build().toString();
    }

    private static Reply send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return send(request, Duration.ofSeconds(60));
    }

    private static Reply send(HttpRequest.Builder request, Duration timeout) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.body());
    }
}
