package org.siebog.delivery;

import java.util.concurrent.CompletableFuture;

import org.siebog.message.ACLMessage;
import org.siebog.message.MessageId;

/**
 * What a mailbox tells the replication of its agent, and asks of it. Agents that are not
 * replicated (stateless ones, reply inboxes) have {@link #NONE}.
 */
public interface Journal {

    Journal NONE = new Journal() {
    };

    /** False when {@code id} was admitted (or refused) before: the message is a duplicate, drop it. */
    default boolean firstTime(MessageId id) {
        return true;
    }

    /**
     * Gives the message its inbox position and completes when it may reach the mailbox: at once
     * for an agent that is not replicated, once logged on two nodes for one that is. Calls complete
     * in the order they were made.
     */
    default CompletableFuture<Envelope> log(MessageId id, ACLMessage message) {
        return CompletableFuture.completedFuture(new Envelope(id, 0, message));
    }

    /** The agent has handled everything up to and including inbox position {@code seq}. */
    default void handledUpTo(long seq) {
    }

    /** A message the agent sent; its state is saved only once all of these are admitted. */
    default void sent(CompletableFuture<Void> admitted) {
    }
}
