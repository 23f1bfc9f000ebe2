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

    /**
     * Takes over {@code entry.aid()} for a new owner atomically: true when the directory still placed
     * it on {@code from} and now places it as {@code entry} says; false when another node took it
     * first (or it was stopped). Two survivors that both think an agent is theirs (views that changed
     * twice in quick succession) never both start it.
     */
    boolean claim(String from, DirectoryEntry entry);

    void unregister(AID aid);

    Collection<DirectoryEntry> all();
}
