package org.siebog.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The bound on a kind of stream: a place is taken per stream and given back once, however it ends. */
class SseStreamTest {

    /** A stream that nothing feeds; its sink and events are never touched by these tests. */
    private static final class Quiet extends SseStream {
        Quiet(Limit limit) {
            super(null, null, limit);
        }

        @Override
        void closed() {
        }
    }

    @Test
    void aStreamRefusedBeforeItBeganGivesItsPlaceBackOnce() {
        SseStream.Limit limit = new SseStream.Limit(1, "test streams");
        Quiet first = new Quiet(limit);
        SseStream.StreamsFullException full = assertThrows(SseStream.StreamsFullException.class, () -> new Quiet(limit));
        assertEquals(503, full.status());
        assertEquals("this node already serves 1 test streams; try again later or on another node", full.getMessage());

        first.abandon();
        first.abandon(); // once only: a second call gives nothing back
        Quiet second = new Quiet(limit);
        assertThrows(SseStream.StreamsFullException.class, () -> new Quiet(limit), "one place, now the second stream's");
        second.abandon();
    }
}
