package org.siebog.message;

import java.util.Set;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MalformedMessageException;

/**
 * What a sniffer watches (docs/admin.md, "Sniffer"): the messages that chosen agents send or receive,
 * and those of chosen conversations. A message matches when its sender or the receiver it was admitted
 * for is one of {@code agents}, or its {@code conversationId} is one of {@code conversations}. At least
 * one agent or conversation, and at most {@link #MAX_TERMS} of each: a watch of everything would copy
 * every message of the cluster to one browser.
 */
public record SniffFilter(Set<AID> agents, Set<String> conversations) {

    public static final int MAX_TERMS = 32;

    public SniffFilter {
        agents = Set.copyOf(agents);
        conversations = Set.copyOf(conversations);
        if (agents.isEmpty() && conversations.isEmpty()) {
            throw new MalformedMessageException("a sniffer needs at least one agent or conversation to watch");
        }
        if (agents.size() > MAX_TERMS || conversations.size() > MAX_TERMS) {
            throw new MalformedMessageException("a sniffer watches at most " + MAX_TERMS + " agents and " + MAX_TERMS
                    + " conversations; got " + agents.size() + " and " + conversations.size());
        }
    }

    /** True when the copy of {@code message} admitted for {@code receiver} is one to show. */
    public boolean matches(AID receiver, ACLMessage message) {
        return agents.contains(receiver)
                || message.sender() != null && agents.contains(message.sender())
                || message.conversationId() != null && conversations.contains(message.conversationId());
    }
}
