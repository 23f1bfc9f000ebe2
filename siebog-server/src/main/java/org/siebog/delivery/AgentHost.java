package org.siebog.delivery;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.agent.AID;
import org.siebog.agent.Agent;
import org.siebog.platform.PlatformConfig;

/** The agents running on this node, each with its mailbox. */
@ApplicationScoped
public class AgentHost {

    private final ConcurrentMap<AID, Mailbox> mailboxes = new ConcurrentHashMap<>();

    @Inject
    AgentExecutor executor;

    @Inject
    MessageRouter router;

    /**
     * Takes in a freshly created agent bean. Its mailbox admits messages at once but holds them
     * until {@link Mailbox#activate()}, so nothing reaches the agent before it has started.
     */
    public Mailbox host(AID aid, Agent agent) {
        PlatformConfig config = PlatformConfig.SYSTEM;
        Mailbox mailbox = new Mailbox(new HostedAgentContext(aid, router), agent, executor.nextLane(),
                config.mailboxCapacity(), config.mailboxThroughput());
        if (mailboxes.putIfAbsent(aid, mailbox) != null) {
            throw new IllegalStateException(aid + " is already hosted on this node");
        }
        return mailbox;
    }

    /** The mailbox of an agent running here, or null. */
    public Mailbox mailbox(AID aid) {
        return mailboxes.get(aid);
    }

    /** Stops taking messages for {@code aid}; it handles those already admitted, then stops. */
    public void stop(AID aid, Runnable afterStop) {
        Mailbox mailbox = mailboxes.remove(aid);
        if (mailbox != null) {
            mailbox.close(afterStop);
        }
    }

    /** Forgets an agent that never started. */
    public void discard(AID aid) {
        mailboxes.remove(aid);
    }

    public int count() {
        return mailboxes.size();
    }
}
