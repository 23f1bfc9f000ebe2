package org.siebog.agentmanager;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJBException;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.UnknownAgentException;
import org.siebog.state.StateRefusedException;

/** Which failed starts keep their own status (the node's or the store's failures) and which are the agent's (400). */
class LocalAgentsTest {

    @Test
    void failuresOfTheNodeOrTheStoreAreNotTheAgentsFault() {
        // What ClientAgentProxy throws when reading the saved state takes over 30 s: it was answered 400.
        assertTrue(LocalAgents.notTheAgentsFault(new RemoteNodeException("reading the saved state of a@siebog took over 30000 ms")));
        assertTrue(LocalAgents.notTheAgentsFault(StateRefusedException.tooManyPending(256)), "a refused state operation keeps its 429");
    }

    @Test
    void whatTheAgentsOwnStartThrowsIsABadRequest() {
        assertFalse(LocalAgents.notTheAgentsFault(new EJBException(new IllegalArgumentException("onStart: no 'pong' argument"))));
        assertFalse(LocalAgents.notTheAgentsFault(new IllegalStateException("not Serializable")));
        assertFalse(LocalAgents.notTheAgentsFault(new InvalidAgentRequestException("agent a@siebog failed to start on device d1: boom")));
        assertFalse(LocalAgents.notTheAgentsFault(new UnknownAgentException(new AID("nobody", "siebog"))),
                "a refusal under 500 that the agent's own start ran into (here its first send) is its failure to start");
    }
}
