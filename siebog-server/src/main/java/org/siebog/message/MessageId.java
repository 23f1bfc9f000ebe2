package org.siebog.message;

/**
 * A message's identity, for recognising it when it arrives twice (a resend after a node died, or
 * the replay of a handler after a failover): {@code counter} counts the messages {@code origin}
 * has addressed to one receiver, 1, 2, 3, ... An agent's counters are part of its replicated
 * state, so a replayed handler sends under the same identities as the first run did.
 *
 * <p>Counter 0 is {@linkplain #unnumbered(String) no identity}: a message to a reply inbox, which
 * de-duplicates nothing, so no counter is kept for it.
 *
 * @param origin an agent's AID, or for posts from outside agents, a node's name and boot
 */
public record MessageId(String origin, long counter) {

    /**
     * The identity of a message to a receiver that never de-duplicates: a REST caller's reply inbox
     * ({@code reply-NODE-UUID}), which lives on one node only, dies with it, and takes the first
     * message that comes. A repeat to it (an answer sent again by a replayed handler) is ignored or
     * refused like any message to a closed inbox, so nothing is lost by not telling it apart, and a
     * sender answering a million REST calls keeps no counter for any of their inboxes.
     */
    public static MessageId unnumbered(String origin) {
        return new MessageId(origin, 0);
    }

    /** True for {@link #unnumbered(String)}: a receiver must not take it for one it has seen (counter 0 is below every window). */
    public boolean isUnnumbered() {
        return counter == 0;
    }
}
