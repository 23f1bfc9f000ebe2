package org.siebog.delivery;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.platform.PlatformConfig;

/** The agents running on this node, each with its mailbox. */
@ApplicationScoped
public class AgentHost {

    private final ConcurrentMap<AID, Mailbox> mailboxes = new ConcurrentHashMap<>();
    private final Set<AID> balanced = ConcurrentHashMap.newKeySet();

    @Inject
    AgentExecutor executor;

    @Inject
    MessageRouter router;

    /**
     * Takes in a freshly created agent bean. Its mailbox admits messages at once but holds them
     * until {@link Mailbox#activate()}, so nothing reaches the agent before it has started.
     */
    public Mailbox host(AID aid, Agent agent) {
        return host(aid, agent, false, Journal.NONE, mailbox -> { });
    }

    /**
     * @param balanced this is one node's instance of a stateless agent that every node may handle:
     *                 the router balances messages to it rather than keeping them on this node
     * @param journal  the agent's replication, in place before any sender can find the mailbox
     *                 (a message admitted without it would not be logged)
     * @param prepare  runs before the mailbox can be found, e.g. to put back replayed messages
     *                 ahead of any new one
     */
    public Mailbox host(AID aid, Agent agent, boolean balanced, Journal journal, Consumer<Mailbox> prepare) {
        PlatformConfig config = PlatformConfig.SYSTEM;
        Mailbox mailbox = new Mailbox(new HostedAgentContext(aid, router), agent, executor.nextLane(),
                config.mailboxCapacity(), config.mailboxThroughput());
        mailbox.journal(journal);
        journal.attach(mailbox, executor.timer());
        prepare.accept(mailbox);
        if (mailboxes.putIfAbsent(aid, mailbox) != null) {
            throw new IllegalStateException(aid + " is already hosted on this node");
        }
        if (balanced) {
            this.balanced.add(aid);
        }
        return mailbox;
    }

    /** The mailbox of an agent running here (or of this node's instance of a balanced one), or null. */
    public Mailbox mailbox(AID aid) {
        return mailboxes.get(aid);
    }

    /** The mailbox of an agent that lives on this node only, or null: a message to it never leaves the node. */
    public Mailbox owned(AID aid) {
        Mailbox mailbox = mailboxes.get(aid);
        return mailbox == null || balanced.contains(aid) ? null : mailbox;
    }

    /** Stops taking messages for {@code aid}; it handles those already admitted, then stops. */
    public void stop(AID aid, Runnable afterStop) {
        Mailbox mailbox = mailboxes.remove(aid);
        balanced.remove(aid);
        if (mailbox != null) {
            mailbox.close(afterStop);
        }
    }

    /** Forgets an agent that never started. */
    public void discard(AID aid) {
        mailboxes.remove(aid);
        balanced.remove(aid);
    }

    public int count() {
        return mailboxes.size();
    }
}
