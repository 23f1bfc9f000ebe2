package org.siebog.directory;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.siebog.agent.AID;
import org.siebog.agent.AgentInfo;

/** The directory of a single node. The cluster replaces it with a replicated Infinispan cache. */
@ApplicationScoped
public class InMemoryAgentDirectory implements AgentDirectory {

    private final ConcurrentMap<AID, AgentInfo> entries = new ConcurrentHashMap<>();

    @Override
    public boolean register(AgentInfo info) {
        return entries.putIfAbsent(info.aid(), info) == null;
    }

    @Override
    public Optional<AgentInfo> lookup(AID aid) {
        return Optional.ofNullable(entries.get(aid));
    }

    @Override
    public void unregister(AID aid) {
        entries.remove(aid);
    }

    @Override
    public Collection<AgentInfo> all() {
        return List.copyOf(entries.values());
    }
}
