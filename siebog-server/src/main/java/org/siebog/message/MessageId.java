package org.siebog.message;

/**
 * A message's identity, for recognising it when it arrives twice (a resend after a node died, or
 * the replay of a handler after a failover): {@code counter} counts the messages {@code origin}
 * has addressed to one receiver, 1, 2, 3, ... An agent's counters are part of its replicated
 * state, so a replayed handler sends under the same identities as the first run did.
 *
 * @param origin an agent's AID, or for posts from outside agents, a node's name and boot
 */
public record MessageId(String origin, long counter) {
}
