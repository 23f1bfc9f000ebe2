package org.siebog.directory;

import java.util.Collection;
import java.util.Optional;

import org.siebog.agent.AID;
import org.siebog.agent.AgentInfo;

/**
 * AID → where the agent lives. The single source of truth for which names are taken; every node
 * can read all of it, so any node can route any message.
 */
public interface AgentDirectory {

    /** Claims {@code info.aid()}; false when an agent of that name is already registered. */
    boolean register(AgentInfo info);

    Optional<AgentInfo> lookup(AID aid);

    void unregister(AID aid);

    Collection<AgentInfo> all();
}
