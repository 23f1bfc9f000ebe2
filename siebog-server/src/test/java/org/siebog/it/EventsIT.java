package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

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

    private static final int MAX_STREAMS = 64;

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    /** The event stream as {@code user}; {@link #await} finds an event by type and a detail. */
    private final class Events implements AutoCloseable {
        private final SseClient stream;
        final int status;
        final String refusal;

        Events(String user) throws Exception {
            stream = new SseClient(siebog, "events", user);
            status = stream.status;
            refusal = stream.refusal;
        }

        /** The next event of {@code type} whose details have {@code key} = {@code value} (its SSE name is its type); fails after 15 s. */
        JsonObject await(String type, String key, String value) throws InterruptedException {
            SseClient.Event event = stream.await(type + " with " + key + "=" + value, e -> e.data().getString("type").equals(type)
                    && value.equals(e.data().getJsonObject("details").getString(key, null)));
            assertEquals(type, event.name());
            return event.data();
        }

        @Override
        public void close() {
            stream.close();
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
