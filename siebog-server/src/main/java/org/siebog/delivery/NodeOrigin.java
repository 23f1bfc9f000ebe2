package org.siebog.delivery;

import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

import org.siebog.api.AID;
import org.siebog.message.MessageId;

/**
 * The origin of messages posted from outside agents on this node (REST, other deployments) and of
 * messages from agents whose state is not replicated: this node in this boot.
 */
final class NodeOrigin implements Origin {

    private final String name;
    private final ConcurrentMap<AID, AtomicLong> counters = new ConcurrentHashMap<>();

    NodeOrigin(String node) {
        this.name = node + "/" + UUID.randomUUID();
    }

    @Override
    public MessageId next(AID receiver) {
        return new MessageId(name, counters.computeIfAbsent(receiver, r -> new AtomicLong()).incrementAndGet());
    }
}
