package org.siebog.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class AgentStateTest {

    static class Base extends AbstractAgent {
        protected int baseCount;

        @Override
        protected void onMessage(ACLMessage message) {
        }
    }

    static class Counting extends Base {
        private final Map<String, Long> perSender = new HashMap<>();
        private String last;
        private transient String scratch;
        static int staticField;
        @jakarta.inject.Inject
        Object injected;
    }

    @Test
    void fieldsOfEveryAgentClassTravelAndTheRestStays() {
        Counting original = new Counting();
        original.baseCount = 3;
        original.perSender.put("a@siebog", 7L);
        original.last = "hello";
        original.scratch = "not state";
        original.injected = "container's";

        Counting restored = new Counting();
        restored.injected = "this container's";
        AgentState.restore(restored, AgentState.capture(original));

        assertEquals(3, restored.baseCount);
        assertEquals(Map.of("a@siebog", 7L), restored.perSender);
        assertEquals("hello", restored.last);
        assertNull(restored.scratch);
        assertEquals("this container's", restored.injected);
    }

    record Point(int x, int y) implements Serializable {
    }

    static final class Tally implements Serializable {
        long aDistinctiveFieldName;
        TimeUnit unit = TimeUnit.SECONDS;
    }

    static class Rich extends Base {
        private AID peer;
        private ACLMessage request;
        private List<Point> points;
        private int[] counts;
        private String[] words;
        private Instant since;
        private TreeMap<String, Tally> tallies = new TreeMap<>();
        private Performative mood;
    }

    @Test
    void valuesOfEveryKindTravelAndClassesAreNamedNotDescribed() {
        Rich original = new Rich();
        original.peer = AID.parse("peer@siebog");
        original.request = ACLMessage.builder(Performative.REQUEST).sender(original.peer).receiver(AID.parse("r@siebog"))
                .content("c").userProperty("k", "v").replyBy(Instant.ofEpochSecond(5)).build();
        original.points = List.of(new Point(1, 2), new Point(3, 4));
        original.counts = new int[] {1, 2, 3};
        original.words = new String[] {"a", null};
        original.since = Instant.ofEpochSecond(1_000, 7);
        Tally tally = new Tally();
        tally.aDistinctiveFieldName = 42;
        original.tallies.put("t", tally);
        original.mood = Performative.AGREE;

        byte[] state = AgentState.capture(original);
        Rich restored = new Rich();
        AgentState.restore(restored, state);

        assertEquals(original.peer, restored.peer);
        assertEquals(original.request, restored.request);
        assertEquals(original.points, restored.points);
        assertArrayEquals(original.counts, restored.counts);
        assertArrayEquals(original.words, restored.words);
        assertEquals(original.since, restored.since);
        assertEquals(42, restored.tallies.get("t").aDistinctiveFieldName);
        assertEquals(TimeUnit.SECONDS, restored.tallies.get("t").unit);
        assertEquals(Performative.AGREE, restored.mood);
        // The field names of a value's class are not written, only the agent's own fields' keys.
        assertFalse(new String(state, StandardCharsets.ISO_8859_1).contains("aDistinctiveFieldName"));
    }

    static class Unserialisable extends Base {
        private final Thread thread = new Thread(() -> { });
    }

    @Test
    void aFieldThatCannotBeSerialisedIsNamedInTheError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> AgentState.capture(new Unserialisable()));
        assertTrue(e.getMessage().contains("java.lang.Thread"), e.getMessage());
    }
}
