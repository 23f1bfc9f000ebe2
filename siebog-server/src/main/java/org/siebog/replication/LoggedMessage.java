package org.siebog.replication;

import java.util.concurrent.CompletableFuture;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.message.MessageId;

/**
 * A message admitted to a stateful agent, on its way into the inbox log: {@code written}
 * completes with the segment that holds it once that is stored on two nodes. {@code lowestSegment}
 * is known at once, before the writer has chosen the segment: the number of that segment is at
 * least this, which is what an {@link AgentRecord}'s {@link LogRange} needs. {@code bytes} is the
 * message's {@link ACLMessage#estimatedBytes() estimated size}, computed once here: the log's bound,
 * the writer's segment cap and the agent's unsaved total all count it, for every message admitted.
 */
record LoggedMessage(AID aid, long incarnation, long seq, MessageId id, ACLMessage message, long lowestSegment,
        CompletableFuture<InboxSegment> written, long bytes) {

    LoggedMessage(AID aid, long incarnation, long seq, MessageId id, ACLMessage message, long lowestSegment,
            CompletableFuture<InboxSegment> written) {
        this(aid, incarnation, seq, id, message, lowestSegment, written, message.estimatedBytes());
    }
}
