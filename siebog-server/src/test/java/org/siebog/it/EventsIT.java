package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /api/events} (docs/admin.md, "Events"): a stream of Server-Sent Events that shows a
 * device joining and leaving as it happens, starts with the recent events, needs a login, and is
 * bounded in number per node (503 beyond, and room again once a stream closes).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EventsIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final int MAX_STREAMS = 64;

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    /** One open stream: its status, and its events (name and JSON data) as they arrive. */
    private final class Events implements AutoCloseable {

        final int status;
        /** The body of a refusal; null for a stream. */
        String refusal;
        private final Stream<String> lines;
        private final BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();

        Events(String user) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(siebog.uri("events")).header("Accept", "text/event-stream");
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
            Thread reader = new Thread(this::read, "events-it-reader");
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
                        JsonObject data = Json.createReader(new StringReader(line.substring(5).strip())).readObject();
                        assertEquals(name[0], data.getString("type"), line);
                        received.add(data);
                    } else if (line.isEmpty()) {
                        name[0] = null;
                    }
                });
            } catch (RuntimeException closed) {
                // the test closed the stream
            }
        }

        /** The next event of {@code type} whose details have {@code key} = {@code value}; fails after 15 s. */
        JsonObject await(String type, String key, String value) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            List<JsonObject> others = new ArrayList<>();
            for (JsonObject e; (e = received.poll(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS)) != null; ) {
                if (e.getString("type").equals(type) && value.equals(e.getJsonObject("details").getString(key, null))) {
                    return e;
                }
                others.add(e);
            }
            throw new AssertionError("no " + type + " with " + key + "=" + value + " within 15 s; got " + others);
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    @Test
    void aDeviceJoiningAndLeavingIsStreamedAsItHappensAndANewStreamStartsWithIt() throws Exception {
        String device;
        try (Events viewer = new Events("viewer")) {
            assertEquals(200, viewer.status);
            try (TestDevice joined = TestDevice.join(siebog, 10)) {
                device = joined.id();
                JsonObject event = viewer.await("device-joined", "device", device);
                assertEquals("it-node", event.getString("node"));
                assertTrue(Math.abs(System.currentTimeMillis() - event.getJsonNumber("at").longValue()) < 60_000, event::toString);
            }
            viewer.await("device-left", "device", device);
        }
        try (Events later = new Events("viewer")) {
            later.await("device-joined", "device", device);
            later.await("device-left", "device", device);
        }
    }

    @Test
    void aStreamNeedsALogin() throws Exception {
        try (Events anonymous = new Events(null)) {
            assertEquals(401, anonymous.status);
        }
    }

    /**
     * Streams other tests closed may still count for up to 15 s (the server finds a departed client at its next
     * write, the keep-alive at the latest), so this opens streams until one is refused: never more than 64.
     */
    @Test
    void aNodeServesAtMost64StreamsAndHasRoomAgainWhenOneCloses() throws Exception {
        List<Events> open = new ArrayList<>();
        try {
            Events refused = null;
            while (refused == null && open.size() <= MAX_STREAMS) {
                Events attempt = new Events("viewer");
                if (attempt.status == 200) {
                    open.add(attempt);
                } else {
                    refused = attempt;
                }
            }
            assertTrue(refused != null && open.size() <= MAX_STREAMS, () -> open.size() + " streams open and none refused");
            assertEquals(503, refused.status, refused.refusal);
            assertTrue(refused.refusal.contains("siebog.events.max-subscribers"), refused.refusal);

            open.remove(0).close();
            SiebogApi.await("room for a stream once one closed", () -> {
                try (Events again = new Events("viewer")) {
                    return again.status == 200;
                } catch (Exception e) {
                    return false;
                }
            });
        } finally {
            open.forEach(Events::close);
        }
    }
}
