package org.siebog.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.message.ACLMessage;

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

    static class Unserialisable extends Base {
        private final Thread thread = new Thread(() -> { });
    }

    @Test
    void aFieldThatCannotBeSerialisedIsNamedInTheError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> AgentState.capture(new Unserialisable()));
        assertTrue(e.getMessage().contains("java.lang.Thread"), e.getMessage());
    }
}
