package org.siebog.delivery;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.siebog.api.AID;
import org.siebog.message.MessageId;

/**
 * One identity for every receiver of a message and every posting of it: for a message that may be
 * posted more than once, to receivers not known in advance, and must be handled once. A delayed post
 * (each firing of it; the identity made from its key) and a post under an {@code Idempotency-Key} to
 * a topic (whose subscribers are chosen anew for each posting, so no list of their identities can be
 * stored first; {@link IdentifiedPosts}) go under one: a stateful receiver that admitted it drops
 * the repeats, and its counter deals it to the same member of a topic's group at every posting.
 */
record SameIdentity(MessageId id) implements Origin {

    /** The counter made from {@code key}: the same for every posting under it, never 0. */
    static long counterOf(String key) {
        long counter = UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8)).getMostSignificantBits() & Long.MAX_VALUE;
        return counter == 0 ? 1 : counter;
    }

    @Override
    public MessageId next(AID receiver) {
        return id;
    }
}
