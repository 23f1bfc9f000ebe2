package org.siebog.delivery;

import java.util.UUID;

import org.siebog.agent.AID;
import org.siebog.message.MessageId;

/**
 * The origin of messages posted from outside agents on this node (REST, other deployments) and of
 * messages from agents whose state is not replicated: this node in this boot.
 *
 * <p>Its receivers are whatever the node's callers name, so their counters are bounded
 * ({@link ReceiverCounters}) and reply inboxes get none. Nothing here is replicated: a message
 * this node still holds unadmitted keeps the identity it was given, and a new boot is a new origin.
 */
final class NodeOrigin implements Origin {

    private final String name;
    private final ReceiverCounters counters;

    NodeOrigin(String node) {
        this(node, new ReceiverCounters());
    }

    NodeOrigin(String node, ReceiverCounters counters) {
        this.name = node + "/" + UUID.randomUUID();
        this.counters = counters;
    }

    @Override
    public MessageId next(AID receiver) {
        if (ReplyInboxes.nodeOf(receiver).isPresent()) {
            return MessageId.unnumbered(name);
        }
        long counter;
        synchronized (counters) { // every posting thread of the node: a short, uncontended section next to a post
            counter = counters.next(receiver.toString());
        }
        return new MessageId(name, counter);
    }

    /** Receivers numbered and held now (at most {@link ReceiverCounters#MAX_RECEIVERS}). */
    int receivers() {
        synchronized (counters) {
            return counters.size();
        }
    }
}
