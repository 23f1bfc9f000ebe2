package org.siebog.delivery;

import java.util.UUID;

import org.siebog.api.AID;
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

    /**
     * Receivers held in all: far more than an agent's {@link ReceiverCounters#MAX_RECEIVERS}, as
     * every stateless agent of the node sends under this origin (a thousand stateless Receivers
     * answering a thousand Senders) and the counters are in memory only, not in saved records. A
     * receiver dropped before it is quiet is numbered on above a gap, which its window holds as one
     * more run: at this size only a node sending to over 65,536 agents in turn pays that.
     */
    static final int MAX_RECEIVERS = 65_536;
    /**
     * Every posting thread and every stateless agent's send numbers here: one lock per stripe, not
     * one for the node. A receiver always falls in the same stripe, whose floor covers every counter
     * it was given there, so its numbering still only goes up.
     */
    private static final int STRIPES = 16;

    private final String name;
    private final ReceiverCounters[] stripes = new ReceiverCounters[STRIPES];

    NodeOrigin(String node) {
        this(node, MAX_RECEIVERS);
    }

    NodeOrigin(String node, int maxReceivers) {
        this.name = node + "/" + UUID.randomUUID();
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReceiverCounters(Math.max(1, maxReceivers / STRIPES));
        }
    }

    @Override
    public MessageId next(AID receiver) {
        if (ReplyInboxes.nodeOf(receiver).isPresent()) {
            return MessageId.unnumbered(name);
        }
        ReceiverCounters stripe = stripes[Math.floorMod(receiver.hashCode(), STRIPES)];
        long counter;
        synchronized (stripe) {
            counter = stripe.next(receiver);
        }
        return new MessageId(name, counter);
    }

    /** Receivers numbered and held now (at most {@link #MAX_RECEIVERS}). */
    int receivers() {
        int held = 0;
        for (ReceiverCounters stripe : stripes) {
            synchronized (stripe) {
                held += stripe.size();
            }
        }
        return held;
    }
}
