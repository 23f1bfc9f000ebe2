package org.siebog.delivery;

import org.siebog.directory.DirectoryEntry;

/**
 * This node's instance of a balanced (stateless) agent, made on first use: what the router needs of
 * agent lifecycle to deliver a message to such an agent here. Declared by delivery and implemented
 * by agent lifecycle ({@code LocalAgents}), so that delivery does not depend on it.
 */
public interface LocalInstances {

    /** The mailbox of this node's instance of the balanced agent {@code entry} names. */
    Mailbox instanceOf(DirectoryEntry entry);
}
