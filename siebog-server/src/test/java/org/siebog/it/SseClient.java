package org.siebog.it;

import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * One open Server-Sent Events stream of the API ({@code GET /api/events}, {@code GET /api/sniffer}): its
 * status, and its events (name and JSON data) as they arrive, read on a thread of its own.
 */
final class SseClient implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** An event: its name and its data. */
    record Event(String name, JsonObject data) {
    }

    final int status;
    /** The body of a refusal; null for a stream. */
    String refusal;
    private final Stream<String> lines;
    private final BlockingQueue<Event> received = new LinkedBlockingQueue<>();

    /** Opens {@code path} (under the API) as {@code user}, or with no credentials when null. */
    SseClient(SiebogApi siebog, String path, String user) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(siebog.uri(path)).header("Accept", "text/event-stream");
        if (user != null) {
            request.header("Authorization", SiebogApi.authorization(user));
        }
        HttpResponse<Stream<String>> response = HTTP.send(request.build(), BodyHandlers.ofLines());
        status = response.statusCode();
        lines = response.body();
        if (status != 200) {
            refusal = lines.collect(Collectors.joining("\n")); // a refusal's body ends
            return;
        }
        Thread reader = new Thread(this::read, "sse-it-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** SSE: "event: NAME", "data: JSON", a blank line; comments start with ':'. */
    private void read() {
        String[] name = {null};
        try {
            lines.forEach(line -> {
                if (line.startsWith("event:")) {
                    name[0] = line.substring(6).strip();
                } else if (line.startsWith("data:") && name[0] != null) {
                    received.add(new Event(name[0], Json.createReader(new StringReader(line.substring(5).strip())).readObject()));
                } else if (line.isEmpty()) {
                    name[0] = null;
                }
            });
        } catch (RuntimeException closed) {
            // the test closed the stream
        }
    }

    /** The next event that {@code wanted} accepts, skipping others; fails after 15 s, naming {@code what}. */
    Event await(String what, Predicate<Event> wanted) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        List<Event> others = new ArrayList<>();
        for (Event e; (e = received.poll(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS)) != null; ) {
            if (wanted.test(e)) {
                return e;
            }
            others.add(e);
        }
        throw new AssertionError("no " + what + " within 15 s; got " + others);
    }

    @Override
    public void close() {
        lines.close();
    }
}
