package org.siebog.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.siebog.api.AID;
import org.siebog.platform.PlatformConfig;

/** Hosts every {@link PlatformAgent} on this node from the application's start, and says which names they take. */
@ApplicationScoped
public class PlatformAgents {

    @Inject
    AgentHost host;

    @Inject
    @Any
    Instance<PlatformAgent> agents;

    private final List<AID> hosted = new ArrayList<>();
    private volatile Set<String> names = Set.of();

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        for (PlatformAgent agent : agents) {
            AID aid = new AID(agent.name(), PlatformConfig.SYSTEM.platformName());
            host.host(aid, agent.create(aid)).activate();
            hosted.add(aid);
        }
        names = hosted.stream().map(AID::name).collect(Collectors.toUnmodifiableSet());
    }

    @PreDestroy
    void stop() {
        hosted.forEach(aid -> host.stop(aid, () -> { }));
    }

    /** Whether {@code name} is a platform agent's, which no other agent may take. */
    public boolean reserved(String name) {
        return names.contains(name);
    }
}
