package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.siebog.agent.AgentClass;
import org.siebog.api.AgentKind;

class SpawnPolicyTest {

    private static final AgentClass ECHO = new AgentClass("Echo", AgentKind.CLIENT, "/siebog/agents/Echo.js");
    private static final AgentClass TSP = new AgentClass("TspCoordinator", AgentKind.STATEFUL, "java:global/x");
    private static final AgentClass PONG = new AgentClass("Pong", AgentKind.STATELESS, "java:global/y");

    @Test
    void byDefaultOnlyClientAgentClasses() {
        SpawnPolicy policy = SpawnPolicy.parse(SpawnPolicy.DEFAULT);
        assertTrue(policy.allows(ECHO));
        assertFalse(policy.allows(TSP));
        assertFalse(policy.allows(PONG));
    }

    @Test
    void classesByNameKindsAndStar() {
        SpawnPolicy listed = SpawnPolicy.parse(" kind:client , TspCoordinator");
        assertTrue(listed.allows(ECHO));
        assertTrue(listed.allows(TSP));
        assertFalse(listed.allows(PONG));

        SpawnPolicy stateless = SpawnPolicy.parse("kind:stateless");
        assertTrue(stateless.allows(PONG));
        assertFalse(stateless.allows(ECHO));

        assertTrue(SpawnPolicy.parse("*").allows(TSP));
        assertFalse(SpawnPolicy.parse("").allows(ECHO), "an empty list: devices spawn nothing");
    }

    @Test
    void aKindThatDoesNotExistIsAMistakeNotAGuess() {
        assertThrows(IllegalArgumentException.class, () -> SpawnPolicy.parse("kind:clients"));
    }
}
