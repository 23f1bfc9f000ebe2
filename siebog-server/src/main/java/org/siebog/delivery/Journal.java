package org.siebog.delivery;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

import org.siebog.api.ACLMessage;
import org.siebog.message.MessageId;

/**
 * What a mailbox tells the replication of its agent, and asks of it. A stateless agent's is a
 * {@link StatelessJournal}; reply inboxes and client agents' proxies have {@link #NONE}.
 */
public interface Journal {

    Journal NONE = new Journal() {
    };

    /** Called once, before the mailbox can be found: where the journal asks for deferred saves. */
    default void attach(Mailbox mailbox, ScheduledExecutorService saveTimer) {
    }

    /** True when {@code id} was admitted before: the message is a duplicate, drop it. Records nothing. */
    default boolean seen(MessageId id) {
        return false;
    }

    /**
     * What a duplicate of {@code id} (a message {@link #seen} before, or not there the {@link #firstTime})
     * is answered: admitted once the first copy's admission may be acknowledged, refused if it may not.
     * Answered "admitted" at once, a copy sent again while the first was still being logged (its sender
     * gave up waiting, a link to this node was opened again) would be counted as admitted by its sender
     * while nothing durable holds it yet, and lost with this node.
     */
    default CompletableFuture<Void> duplicateOf(MessageId id) {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Whether the node may take {@code message} for this agent: false when what it holds of
     * replicated messages not yet covered by saved states is at its bound. Checked before a mailbox
     * slot is reserved; a refused message is not recorded.
     */
    default boolean hasRoom(ACLMessage message) {
        return true;
    }

    /**
     * Records {@code id} as admitted, for a message whose mailbox slot is reserved; false when it
     * was admitted meanwhile (the slot is then not used). A refused message is never recorded, so
     * its sender may send it again.
     */
    default boolean firstTime(MessageId id) {
        return true;
    }

    /**
     * Admits a message whose mailbox slot is reserved: gives it its inbox position, hands it to
     * {@code mailbox} at once (in position order), and completes when the admission may be
     * acknowledged: at once for a reply inbox or a proxy, once the message is logged on two nodes for
     * a stateful agent, once it is handled for a stateless one. The agent may handle it before then; until the acknowledgement its
     * sender still holds it, so a crash in between loses nothing (see docs/cluster.md).
     */
    default CompletableFuture<Void> admit(MessageId id, ACLMessage message, Consumer<Envelope> mailbox) {
        mailbox.accept(new Envelope(id, 0, message));
        return CompletableFuture.completedFuture(null);
    }

    /**
     * The agent has handled everything up to and including inbox position {@code seq}; called on
     * its lane. {@code now}: save the state now rather than when the save interval allows.
     */
    default void handledUpTo(long seq, boolean now) {
    }

    /** A message the agent sent; its state is saved only once all of these are admitted. */
    default void sent(CompletableFuture<Void> admitted) {
    }

    /**
     * The mailbox was left with admitted messages still queued ({@link Mailbox#leave}): a replicated
     * agent's are in the inbox log for its next host; a journal that holds them only here tells their
     * senders ({@code why}).
     */
    default void dropped(String why) {
    }
}
