package org.siebog.state;

import java.time.Instant;

/**
 * An agent's state as the store holds it.
 *
 * @param aid     the agent's AID, string form ({@code name@platform})
 * @param version the version it was saved as (1 for an agent's first save, one more for each after it)
 * @param state   the state itself, as the agent's host gave it (a JSON text for client agents); null once cleared
 * @param device  the device that wrote it (null when a server-side writer did)
 * @param updated when the write was made
 */
public record StoredState(String aid, long version, String state, String device, Instant updated) {
}
