package org.siebog.delivery;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.platform.PlatformConfig;
import org.siebog.platform.Beans;

/** The agents running on this node, each with its mailbox. */
@ApplicationScoped
public class AgentHost {

    /**
     * The histogram's buckets: handlers run from microseconds (a counter) to seconds (a blocking
     * call); a few fixed buckets cost a scrape little and the message path a short search.
     */
    private static final Duration[] HANDLER_BUCKETS = {Duration.ofNanos(10_000), Duration.ofNanos(100_000), Duration.ofMillis(1),
            Duration.ofMillis(10), Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(10)};

    private final ConcurrentMap<AID, Mailbox> mailboxes = new ConcurrentHashMap<>();
    private final Set<AID> balanced = ConcurrentHashMap.newKeySet();

    @Inject
    AgentExecutor executor;

    @Inject
    MessageRouter router;

    @Inject
    AgentAsks asks;

    @Inject
    AgentMoves moves;

    @Inject
    MeterRegistry meters;

    /** Shared by every mailbox: the node's delivered messages and one histogram of its handling times. */
    private HandlerMeters handlerMeters;

    /** Made when the application starts, not at its first message: its meters are scraped from the start. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object started) {
    }

    @PostConstruct
    void meters() {
        handlerMeters = new HandlerMeters(
                Counter.builder("siebog.messages.delivered").description("Messages handed to agents on this node").register(meters),
                Timer.builder("siebog.messages.handled")
                        .description("Time agents on this node took to handle a message (one in " + HandlerMeters.SAMPLE_EVERY
                                + " per mailbox is timed)")
                        .serviceLevelObjectives(HANDLER_BUCKETS)
                        .register(meters));
        Gauge.builder("siebog.agents", mailboxes, Map::size)
                .description("Agents (and instances of balanced agents) running on this node").register(meters);
        String depth = "Messages waiting in this node's mailboxes: all together (of=sum), in the fullest (of=max)";
        Gauge.builder("siebog.mailbox.depth", this, host -> host.depth(false)).description(depth).tag("of", "sum").register(meters);
        Gauge.builder("siebog.mailbox.depth", this, host -> host.depth(true)).description(depth).tag("of", "max").register(meters);
    }

    /** The messages waiting in every mailbox here, or in the fullest one; read on a scrape, not kept. */
    private double depth(boolean max) {
        long sum = 0;
        int most = 0;
        for (Mailbox mailbox : mailboxes.values()) {
            int size = mailbox.size();
            sum += size;
            most = Math.max(most, size);
        }
        return max ? most : sum;
    }

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
        Mailbox mailbox = new Mailbox(new HostedAgentContext(aid, Beans.direct(router), asks, moves), agent, executor.nextLane(),
                config.mailboxCapacity(), config.mailboxThroughput(), handlerMeters);
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

    /**
     * Takes an agent that moves to another node off this one: from now on its messages find its
     * departure (opened before this), and its mailbox hands it over ({@link Mailbox#leave}).
     */
    public void leave(AID aid, Mailbox mailbox, LongConsumer onLeft) {
        mailboxes.remove(aid, mailbox);
        mailbox.leave(onLeft);
    }

    /**
     * Drops every agent of this node without handing it over, saving it or touching the directory:
     * this node lost touch with the cluster and the others own its agents now (or will, from their
     * saved state and logged messages). Keeps those {@code kept} (the node's own platform agents).
     * Returns how many were dropped.
     */
    public int dropAll(Predicate<AID> kept) {
        int dropped = 0;
        for (AID aid : List.copyOf(mailboxes.keySet())) {
            Mailbox mailbox = mailboxes.get(aid);
            if (mailbox != null && !kept.test(aid)) {
                leave(aid, mailbox, handledUpTo -> { });
                balanced.remove(aid);
                dropped++;
            }
        }
        return dropped;
    }

    /** Forgets an agent that never started. */
    public void discard(AID aid) {
        mailboxes.remove(aid);
        balanced.remove(aid);
    }

    /** The agents that live on this node only (not its instances of balanced stateless agents), in no order. */
    public Stream<AID> owned() {
        return mailboxes.keySet().stream().filter(aid -> !balanced.contains(aid));
    }

    public int count() {
        return mailboxes.size();
    }
}
