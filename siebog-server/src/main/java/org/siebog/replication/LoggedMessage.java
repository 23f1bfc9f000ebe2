package org.siebog.replication;

import java.util.concurrent.CompletableFuture;

import org.siebog.agent.AID;
import org.siebog.message.ACLMessage;
import org.siebog.message.MessageId;

/**
 * A message admitted to a stateful agent, on its way into the inbox log: {@code written}
 * completes with the segment that holds it once that is stored on two nodes.
 */
record LoggedMessage(AID aid, long incarnation, long seq, MessageId id, ACLMessage message,
        CompletableFuture<InboxSegment> written) {
}
