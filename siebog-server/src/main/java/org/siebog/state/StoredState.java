package org.siebog.state;

import java.time.Instant;

/**
 * An agent's state as the store holds it.
 *
 * @param aid     the agent's AID, string form ({@code name@platform})
 * @param version 1 for the first write, one more for every accepted write after it
 * @param state   the state itself, as the agent's host gave it (a JSON text for client agents)
 * @param device  the device that wrote it (null when a server-side writer did)
 * @param updated when the write was accepted
 */
public record StoredState(String aid, long version, String state, String device, Instant updated) {
}
