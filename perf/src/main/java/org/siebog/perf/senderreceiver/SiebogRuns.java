package org.siebog.perf.senderreceiver;

import java.io.IOException;
import java.io.StringReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.AdminLogin;

/**
 * Runs the benchmark inside a Siebog node through its REST endpoint: {@code POST .../runs} starts
 * a run, {@code GET .../runs/{id}} is polled until it has finished or failed.
 */
final class SiebogRuns {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final URI node;
    private final String runs;
    private final HttpClient http = AdminLogin.client(Duration.ofSeconds(5));

    SiebogRuns(URI node) {
        this.node = node;
        this.runs = examplesOf(node) + "/api/sender-receiver/runs";
    }

    /**
     * The examples' deployment beside the node's Siebog, where the runs' resource lives:
     * {@code http://host:port/siebog} → {@code http://host:port/siebog-examples}.
     */
    static String examplesOf(URI node) {
        return node.resolve("/siebog-examples").toString();
    }

    /** Fails fast, before any run, when nothing answers at the URL or the examples are not deployed beside it. */
    void checkReachable() throws RunFailedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(node + "/api/nodes")).timeout(REQUEST_TIMEOUT).build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() != 200) {
            throw new RunFailedException("GET " + request.uri() + " answered " + response.statusCode()
                    + ": is Siebog deployed at " + node + "?");
        }
        // An unknown run: the resource answers 404 with its JSON error; without the examples there is no resource.
        HttpRequest probe = HttpRequest.newBuilder(URI.create(runs + "/none")).timeout(REQUEST_TIMEOUT).build();
        HttpResponse<String> examples = send(probe);
        if (examples.statusCode() != 404 || !examples.body().contains("no Sender/Receiver run")) {
            throw new RunFailedException("GET " + probe.uri() + " answered " + examples.statusCode()
                    + ": is siebog-examples.war deployed beside siebog.ear (./siebog run deploys both)?");
        }
    }

    /**
     * @param nodes 1: the cluster places the agents as it likes; 2: every Sender on the cluster's
     *              first node and every Receiver pinned to its second, so each round trip crosses nodes
     */
    RunResult run(RunParameters parameters, Duration timeout, int nodes) throws RunFailedException {
        JsonObjectBuilder body = Json.createObjectBuilder()
                .add("pairs", parameters.pairs())
                .add("payloadChars", parameters.payloadChars())
                .add("primeLimit", parameters.primeLimit())
                .add("warmup", parameters.warmup())
                .add("measured", parameters.measured());
        if (nodes > 1) {
            List<String> members = memberNames();
            if (members.size() < nodes) {
                throw new RunFailedException("--nodes " + nodes + " needs a cluster of " + nodes + " nodes; " + node
                        + " has " + members + " (start one with ./siebog run --nodes " + nodes + ")");
            }
            body.add("senderNode", members.get(0)).add("receiverNode", members.get(1));
        }
        JsonObject started = call(HttpRequest.newBuilder(URI.create(runs))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.build().toString())));
        URI status = URI.create(runs + "/" + URLEncoder.encode(started.getString("id"), StandardCharsets.UTF_8));

        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            sleep(POLL_INTERVAL);
            JsonObject run = call(HttpRequest.newBuilder(status).GET());
            if (!RunStatusJson.RUNNING.equals(run.getString("state", ""))) {
                return RunStatusJson.result(run);
            }
        }
        throw new RunFailedException("no result within " + timeout.toSeconds() + " s (the run goes on in the node)");
    }

    private List<String> memberNames() throws RunFailedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(node + "/api/nodes")).timeout(REQUEST_TIMEOUT).build());
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readArray().stream().map(v -> v.asJsonObject().getString("name")).toList();
        }
    }

    /** Sends the request and reads the JSON object it answers; errors become the node's own message. */
    private JsonObject call(HttpRequest.Builder request) throws RunFailedException {
        HttpRequest built = request.timeout(REQUEST_TIMEOUT).header("Accept", "application/json").build();
        HttpResponse<String> response = send(built);
        JsonObject json;
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            json = reader.readObject();
        } catch (JsonException e) {
            throw new RunFailedException(built.method() + " " + built.uri() + " answered " + response.statusCode()
                    + " without a JSON object");
        }
        if (response.statusCode() / 100 != 2) {
            throw new RunFailedException(built.method() + " " + built.uri() + " answered " + response.statusCode() + ": "
                    + json.getString("error", json.toString()));
        }
        return json;
    }

    private HttpResponse<String> send(HttpRequest request) throws RunFailedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new RunFailedException("no Siebog node answers at " + node + " (start one with ./siebog run, or pass --url)");
        } catch (IOException e) {
            throw new RunFailedException(request.method() + " " + request.uri() + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted");
        }
    }

    private static void sleep(Duration duration) throws RunFailedException {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted");
        }
    }
}
