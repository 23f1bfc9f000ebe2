package org.siebog.directory;

import java.util.Collection;
import java.util.Optional;

import org.siebog.api.AID;

/**
 * AID → where the agent lives. The single source of truth for which names are taken; every node
 * holds all of it, so any node routes any message without asking another.
 */
public interface AgentDirectory {

    /** Claims {@code entry.aid()}; false when an agent of that name is already registered. */
    boolean register(DirectoryEntry entry);

    Optional<DirectoryEntry> lookup(AID aid);

    /** Records that an agent now runs on another node (after a failover). */
    void update(DirectoryEntry entry);

    void unregister(AID aid);

    Collection<DirectoryEntry> all();
}
