package org.siebog.delivery;

import org.siebog.api.ACLMessage;
import org.siebog.message.MessageId;

/**
 * A message as a mailbox holds it.
 *
 * @param id  its identity, or null where none is kept (agents that are not replicated)
 * @param seq its place in the receiver's replicated inbox (1, 2, 3, ...), or 0 when not logged
 */
public record Envelope(MessageId id, long seq, ACLMessage message) {

    public static Envelope unlogged(ACLMessage message) {
        return new Envelope(null, 0, message);
    }
}
