package org.siebog.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.BacklogFullException;
import org.siebog.api.MailboxFullException;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.Performative;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.api.Topics;
import org.siebog.api.UnknownAgentException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.NodeLease;
import org.siebog.cluster.NodeOp;
import org.siebog.cluster.RemoteNodes;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.message.MessageId;
import org.siebog.placement.PlacementSelector;
import org.siebog.placement.PlacementSelectors;
import org.siebog.platform.Failures;
import org.siebog.platform.PlatformConfig;
import org.siebog.platform.Setting;
import org.siebog.platform.Beans;

/**
 * Routes messages to mailboxes, by reference: a message to an agent on this node goes straight
 * into its mailbox, never serialised. The poster's own thread does the admission, so there is no
 * dispatcher thread for every message to pass through. A message to an agent on another node goes
 * straight to that node (batched with others bound there, see {@code NodeLink}); no third node
 * or broker is involved. Agents reach the router through their {@link org.siebog.api.AgentContext};
 * everyone else through the MessageManager EJB.
 */
@ApplicationScoped
public class MessageRouter {

    private static final Logger LOG = Logger.getLogger(MessageRouter.class.getName());

    @Inject
    volatile AgentHost host;

    @Inject
    AgentExecutor executor;

    @Inject
    volatile AgentDirectory directory;

    @Inject
    LocalInstances local;

    @Inject
    volatile ClusterNode cluster;

    @Inject
    volatile RemoteNodes remote;

    @Inject
    MeterRegistry meters;

    @Inject
    volatile Sniffer sniffer;

    @Inject
    TopicReceivers topics;

    @Inject
    volatile Departures departures;

    @Inject
    DelayedPosts delayedPosts;

    /** Each receiver's messages leave this node for one node at a time (see {@link ReceiverRoutes}). */
    private final ReceiverRoutes routes = new ReceiverRoutes(Setting.MAX_LINK_BYTES.longValue());

    private final PlacementSelector balancer = PlacementSelectors.fromSystemProperty();
    private volatile Origin nodeOrigin;
    /**
     * Whether the volatile beans above are the beans themselves rather than their client proxies
     * ({@link Beans#direct}): swapped at the first message, when every bean exists. Volatile, so that a
     * thread sees a proxy or a whole bean, whichever it reads.
     */
    private volatile boolean direct;
    private Counter admitted;
    private RefusalCounters refused;

    /** Swaps the client proxies of the beans every message calls for the beans; once, at the first message. */
    private void direct() {
        if (!direct) {
            host = Beans.direct(host);
            directory = Beans.direct(directory);
            cluster = Beans.direct(cluster);
            remote = Beans.direct(remote);
            sniffer = Beans.direct(sniffer);
            departures = Beans.direct(departures);
            direct = true;
        }
    }

    /** Made when the application starts, not at its first message: its meters are scraped from the start. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object started) {
    }

    @PostConstruct
    void meters() {
        admitted = Counter.builder("siebog.messages.admitted")
                .description("Messages let into the mailboxes of agents on this node (each receiver counts)")
                .register(meters);
        refused = new RefusalCounters(meters);
    }

    /**
     * Posts now, from outside any agent. A refusal by this node (unknown receiver, full mailbox, bad
     * message) is thrown; the result completes when every receiver's node has admitted the message,
     * or with the refusal of another node.
     */
    public CompletableFuture<Void> post(ACLMessage message) {
        return post(nodeOrigin(), message);
    }

    /**
     * An agent's send: like {@link #post(ACLMessage)}, but under the agent's own message identities
     * when its state is replicated, and another node's refusal comes back as a FAILURE message.
     */
    public void send(AID self, ACLMessage message) {
        sendFrom(self, message).whenComplete((ok, refusal) -> {
            if (refusal != null) {
                notifySender(message, refusalOf(refusal));
            }
        });
    }

    /**
     * An agent's send whose refusal elsewhere the caller takes care of (an ask fails its stage
     * rather than sending the agent a FAILURE message); what this node refuses is thrown.
     */
    CompletableFuture<Void> sendFrom(AID self, ACLMessage message) {
        direct();
        Mailbox own = host.mailbox(self);
        Journal journal = own == null ? Journal.NONE : own.journal();
        CompletableFuture<Void> admitted = post(journal instanceof Origin agentOrigin ? agentOrigin : nodeOrigin(), message);
        journal.sent(admitted);
        return admitted;
    }

    /** See {@link org.siebog.api.MessageManager#post(ACLMessage, Duration)}: returns once the message is stored. */
    public void post(ACLMessage message, Duration delay) {
        try {
            Failures.written(postLater(message, delay, cluster.name() + "/" + UUID.randomUUID()), "the delayed message");
        } catch (SiebogException e) {
            throw refused.count(e);
        }
    }

    /**
     * An agent's {@code sendLater}: waits for nothing (it runs on the agent's lane); a stateful agent's
     * state is saved only once the message is stored, as after a send, and a failure to store it comes
     * back as a FAILURE message.
     */
    void sendLater(AID self, ACLMessage message, Duration delay) {
        Mailbox own = host.mailbox(self);
        CompletableFuture<Void> stored;
        try {
            // Named after the message being handled: a handler replayed after a crash stores the same post again.
            stored = postLater(message, delay, self + "/" + (own != null ? own.nextNameInHandler() : UUID.randomUUID().toString()));
        } catch (SiebogException e) {
            throw refused.count(e);
        }
        if (own != null) {
            own.journal().sent(stored);
        }
        stored.whenComplete((ok, failed) -> {
            if (failed != null) {
                notifySender(message, refused.count(refusalOf(failed)));
            }
        });
    }

    private CompletableFuture<Void> postLater(ACLMessage message, Duration delay, String key) {
        direct();
        fence();
        MessageLimits.check(message);
        long maxDelay = PlatformConfig.SYSTEM.maxDelayMillis();
        if (delay.isNegative() || delay.compareTo(Duration.ofMillis(maxDelay)) > 0) {
            throw new MalformedMessageException("a delay must be from 0 to " + maxDelay + " ms (siebog.message.max-delay-ms); got "
                    + delay.toMillis() + " ms");
        }
        for (AID receiver : message.receivers()) {
            if (!exists(receiver)) {
                throw new UnknownAgentException(receiver);
            }
        }
        return delayedPosts.schedule(key, message, delay);
    }

    /**
     * Admits a message that another node routed here; completes when it may reach the agent. A
     * message for an agent that is leaving this node waits for it to arrive at its new one, and one
     * for an agent that has left is forwarded to where it is now.
     */
    public CompletableFuture<Void> admitHere(AID receiver, MessageId id, ACLMessage message) {
        direct();
        try {
            fence();
            Mailbox mailbox = host.mailbox(receiver);
            if (mailbox != null) {
                return admit(mailbox, id, message);
            }
            return deliver(receiver, id, message, true);
        } catch (SiebogException e) {
            throw refused.count(e);
        }
    }

    /**
     * Sends on a message for an agent that has moved from this node to {@code node}, under its
     * sender's identity, in order with every other message this node sends it.
     */
    public CompletableFuture<Void> forward(String node, AID receiver, MessageId id, ACLMessage message) {
        direct();
        return routes.send(receiver, node, message.estimatedBytes(), to -> sendTo(to, receiver, id, message));
    }

    /** Posts now under {@code origin}'s identities (a post under an Idempotency-Key to a topic: {@link IdentifiedPosts}). */
    CompletableFuture<Void> post(Origin origin, ACLMessage message) {
        direct();
        try {
            fence();
            MessageLimits.check(message);
            List<AID> receivers = message.receivers();
            if (receivers.size() == 1 && !Topics.isTopic(receivers.get(0))) {
                return postToOne(origin, message, receivers.get(0));
            }
            return postToAll(origin, message, receiversOf(origin, receivers));
        } catch (SiebogException e) {
            throw refused.count(e); // a receiver on another node refuses there, and is counted there
        }
    }

    /**
     * A node that may not act for its agents now (cut off from the majority, paused past its lease, or
     * rejoining: {@link NodeLease}) admits nothing, from anyone: its view of where agents live may be
     * out of date, and the agents it hosts may already be running elsewhere.
     */
    private void fence() {
        NodeLease lease = cluster.lease();
        if (!lease.holds()) {
            throw lease.refusal();
        }
    }

    private CompletableFuture<Void> postToOne(Origin origin, ACLMessage message, AID receiver) {
        Mailbox mailbox = host.owned(receiver);
        if (mailbox != null && !routes.busy(receiver)) { // the common case stays a map lookup: no directory read
            return admit(mailbox, origin.next(receiver), message);
        }
        return deliver(receiver, origin.next(receiver), message, false);
    }

    /**
     * To wherever {@code receiver} is: leaving this node (the message waits for it to arrive), here,
     * or on another node, in order with what this node sent it before. A balanced agent's message
     * goes to the selector's pick, or, when another node picked this one ({@code arrived}), here;
     * a reply inbox's to the node its name says.
     */
    private CompletableFuture<Void> deliver(AID receiver, MessageId id, ACLMessage message, boolean arrived) {
        Departures.Departure departure = departures.of(receiver);
        if (departure != null) {
            return departure.admit(id, message);
        }
        Optional<String> inboxNode = ReplyInboxes.nodeOf(receiver);
        if (inboxNode.isPresent()) {
            return inboxNode.get().equals(cluster.name()) ? admit(mailboxHere(receiver), id, message)
                    : remote.deliver(inboxNode.get(), receiver, id, message);
        }
        DirectoryEntry entry = directory.lookup(receiver).orElseThrow(() -> new UnknownAgentException(receiver));
        if (entry.balanced()) {
            String node = arrived ? cluster.name() : balancer.select(cluster.members());
            return node.equals(cluster.name()) ? admit(mailboxHere(receiver), id, message) : remote.deliver(node, receiver, id, message);
        }
        return forward(host.owned(receiver) != null ? cluster.name() : entry.node(), receiver, id, message);
    }

    /** Hands a message to {@code node}'s link, or admits it here; a refusal here is the result, not thrown (see {@link ReceiverRoutes}). */
    private CompletableFuture<Void> sendTo(String node, AID receiver, MessageId id, ACLMessage message) {
        try {
            if (!node.equals(cluster.name())) {
                return remote.deliver(node, receiver, id, message);
            }
            Mailbox mailbox = host.owned(receiver);
            if (mailbox != null) {
                return admit(mailbox, id, message);
            }
            Departures.Departure departure = departures.of(receiver);
            if (departure != null) {
                return departure.admit(id, message);
            }
            throw new UnknownAgentException(receiver); // registered here but not started yet, or just stopped
        } catch (SiebogException e) {
            return CompletableFuture.failedFuture(refused.count(e));
        }
    }

    /**
     * The agents a message goes to: its receivers, each topic of this platform replaced by the
     * subscribers that get this message. For a topic the origin counts the publisher's messages to
     * it, which deals them to a group's members in turn (and a replay to the same member).
     */
    private Collection<AID> receiversOf(Origin origin, List<AID> named) {
        if (named.stream().noneMatch(this::isTopicHere)) {
            return named;
        }
        Set<AID> receivers = new LinkedHashSet<>();
        for (AID receiver : named) {
            if (isTopicHere(receiver)) {
                receivers.addAll(topics.of(receiver.name().substring(Topics.PREFIX.length()), origin.next(receiver).counter()));
            } else {
                receivers.add(receiver);
            }
        }
        return receivers;
    }

    private boolean isTopicHere(AID aid) {
        return Topics.isTopic(aid) && aid.platform().equals(PlatformConfig.SYSTEM.platformName());
    }

    /**
     * Receivers on this node get the message all or none: every mailbox is reserved before any
     * message is admitted. Receivers on other nodes are admitted there, each on its own; each
     * other node gets the message once, with all its receivers there (but for a receiver whose
     * earlier messages are still on their way to another node: it waits for them on its own).
     */
    private CompletableFuture<Void> postToAll(Origin origin, ACLMessage message, Collection<AID> receivers) {
        Map<AID, MessageId> ids = new LinkedHashMap<>();
        for (AID receiver : receivers) {
            ids.put(receiver, origin.next(receiver));
        }
        for (;;) {
            CompletableFuture<Void> posted = postToAll(ids, message);
            if (posted != null) {
                return posted;
            }
            // A receiver's mailbox here was left (its agent moves) between the routing and the reservation: route again.
        }
    }

    /** One attempt of {@link #postToAll(Origin, ACLMessage, Collection)}; null when a receiver here has just left. */
    private CompletableFuture<Void> postToAll(Map<AID, MessageId> ids, ACLMessage message) {
        List<Mailbox> here = new ArrayList<>();
        List<MessageId> hereIds = new ArrayList<>();
        Map<String, List<AID>> elsewhere = new LinkedHashMap<>();
        List<CompletableFuture<Void>> admissions = new ArrayList<>();
        List<AID> alone = new ArrayList<>();
        for (Map.Entry<AID, MessageId> e : ids.entrySet()) {
            AID receiver = e.getKey();
            Mailbox mailbox = host.owned(receiver);
            if (mailbox != null && !routes.busy(receiver) && !mailbox.beingClaimed()) {
                if (!mailbox.journal().seen(e.getValue())) {
                    here.add(mailbox);
                    hereIds.add(e.getValue());
                }
                continue;
            }
            String node = mailbox != null ? null : nodeOf(receiver); // one here still being claimed waits on its own
            if (node == null) {
                alone.add(receiver);
            } else {
                elsewhere.computeIfAbsent(node, n -> new ArrayList<>()).add(receiver);
            }
        }
        for (Mailbox mailbox : here) {
            if (!mailbox.journal().hasRoom(message)) {
                throw new BacklogFullException(mailbox.owner());
            }
        }
        for (int i = 0; i < here.size(); i++) {
            if (!here.get(i).reserve()) {
                for (int j = 0; j < i; j++) {
                    here.get(j).cancelReservation();
                }
                if (here.get(i).left()) {
                    return null;
                }
                throw new MailboxFullException(here.get(i).owner(), here.get(i).capacity());
            }
        }
        for (int i = 0; i < here.size(); i++) {
            if (here.get(i).journal().firstTime(hereIds.get(i))) {
                admissions.add(logAndEnqueue(here.get(i), hereIds.get(i), message));
            } else {
                here.get(i).cancelReservation(); // admitted meanwhile by a resend
            }
        }
        for (AID receiver : alone) {
            admissions.add(deliver(receiver, ids.get(receiver), message, false));
        }
        long bytes = message.estimatedBytes();
        elsewhere.forEach((node, there) -> admissions.addAll(routes.sendAll(there, node, bytes,
                together -> remote.deliverAll(node, together.stream().map(r -> new NodeOp.Delivery(r, ids.get(r), message)).toList()),
                receiver -> to -> sendTo(to, receiver, ids.get(receiver), message))));
        return CompletableFuture.allOf(admissions.toArray(CompletableFuture[]::new));
    }

    private boolean exists(AID aid) {
        return isTopicHere(aid) || host.mailbox(aid) != null || ReplyInboxes.nodeOf(aid).isPresent() || directory.lookup(aid).isPresent();
    }

    /**
     * The other node that {@code receiver}'s messages go to, in order ({@link ReceiverRoutes}); null
     * for one routed on its own: leaving this node, a balanced agent, a reply inbox, or one that
     * waits here behind messages still on their way elsewhere.
     *
     * @throws UnknownAgentException no such agent, or it is registered here but not running (not
     *                               started yet, or just stopped)
     */
    private String nodeOf(AID receiver) {
        if (departures.of(receiver) != null || ReplyInboxes.nodeOf(receiver).isPresent()) {
            return null;
        }
        DirectoryEntry entry = directory.lookup(receiver).orElseThrow(() -> new UnknownAgentException(receiver));
        if (entry.balanced()) {
            return null;
        }
        if (entry.node().equals(cluster.name())) {
            throw new UnknownAgentException(receiver);
        }
        return entry.node();
    }

    /** The mailbox on this node for {@code receiver}: its own, or this node's instance of a balanced agent. */
    private Mailbox mailboxHere(AID receiver) {
        Mailbox mailbox = host.mailbox(receiver);
        if (mailbox != null) {
            return mailbox;
        }
        DirectoryEntry entry = directory.lookup(receiver).orElseThrow(() -> new UnknownAgentException(receiver));
        if (!entry.balanced()) {
            throw new UnknownAgentException(receiver); // registered here but not started yet, or just stopped
        }
        return local.instanceOf(entry);
    }

    /**
     * A duplicate is answered as admitted and dropped; a message that finds the mailbox full is
     * refused, and its identity stays unused, so a sender that tries again later is not taken for
     * a duplicate.
     */
    private CompletableFuture<Void> admit(Mailbox mailbox, MessageId id, ACLMessage message) {
        if (mailbox.beingClaimed()) {
            CompletableFuture<Void> admitted = new CompletableFuture<>();
            boolean waits;
            try {
                waits = mailbox.whenClaimSettled(() -> {
                    try {
                        admit(mailbox, id, message).whenComplete((ok, refused) -> settle(admitted, refused));
                    } catch (SiebogException refused) {
                        admitted.completeExceptionally(refused);
                    }
                });
            } catch (IllegalStateException full) {
                throw new MailboxFullException(mailbox.owner(), mailbox.capacity());
            }
            if (waits) {
                return admitted; // this node is claiming the agent: admitted here once it has it, else where it is
            }
        }
        Journal journal = mailbox.journal();
        if (journal.seen(id)) {
            return journal.duplicateOf(id);
        }
        if (!journal.hasRoom(message)) {
            throw new BacklogFullException(mailbox.owner());
        }
        if (!mailbox.reserve()) {
            if (mailbox.left()) {
                return deliver(mailbox.owner(), id, message, true); // its agent is leaving: it waits for the agent's new place
            }
            throw new MailboxFullException(mailbox.owner(), mailbox.capacity());
        }
        if (!journal.firstTime(id)) {
            mailbox.cancelReservation(); // admitted meanwhile by a resend
            return journal.duplicateOf(id);
        }
        return logAndEnqueue(mailbox, id, message);
    }

    private static void settle(CompletableFuture<Void> admitted, Throwable refused) {
        if (refused == null) {
            admitted.complete(null);
        } else {
            admitted.completeExceptionally(refused);
        }
    }

    /** For a reserved slot: lets the message into the mailbox; completes once its admission may be acknowledged. */
    private CompletableFuture<Void> logAndEnqueue(Mailbox mailbox, MessageId id, ACLMessage message) {
        admitted.increment();
        sniffer.admitted(mailbox.owner(), message);
        return mailbox.journal().admit(id, message, mailbox::enqueue).exceptionally(failure -> {
            // The agent may still handle it (it is in the mailbox), but it would not survive a crash of this node.
            throw new RemoteNodeException("the message to " + mailbox.owner() + " was admitted but could not be replicated: " + failure);
        });
    }

    private Origin nodeOrigin() {
        Origin origin = nodeOrigin;
        if (origin == null) {
            origin = nodeOrigin = new NodeOrigin(cluster.name());
        }
        return origin;
    }

    static SiebogException refusalOf(Throwable failure) {
        return Failures.refusal(failure, cause -> new RemoteNodeException("delivery failed: " + cause));
    }

    /**
     * Posts a delayed message that is due, under the identity it was stored with ({@link DelayedPosts});
     * completes once it is admitted, or refused and its sender told, as after a send: refused for good
     * (a 4xx: its receiver is gone), refused by the receiver itself (its mailbox is full: the sender
     * decides what to do about a busy receiver), or refused for now when {@code lastTry}. A refusal for
     * now that is not the last try (a 5xx: its receiver is being taken over, its node is gone or its
     * log full) fails the returned future instead, and the post fires again: given up, a REST client's
     * post would be lost in silence (perf/chaos lost 7 of 3,882 that way in 30 minutes). The timer
     * fires outside any handler, so the sending agent's own identities are not used (see
     * docs/cluster.md).
     */
    CompletableFuture<Void> postDelayed(ACLMessage message, Origin delayed, boolean lastTry) {
        direct();
        CompletableFuture<Void> posted;
        try {
            posted = post(delayed, message);
        } catch (SiebogException e) {
            posted = CompletableFuture.failedFuture(e);
        }
        return posted.handle((ok, failed) -> {
            if (failed == null) {
                return null;
            }
            SiebogException refusal = refusalOf(failed);
            if (!lastTry && refusal.status() >= 500 && !(refusal instanceof MailboxFullException)) {
                throw new CompletionException(refusal);
            }
            LOG.log(Level.INFO, "delayed message could not be delivered: {0}", refusal.getMessage());
            notifySender(message, refusal);
            return null;
        });
    }

    private void notifySender(ACLMessage undelivered, SiebogException reason) {
        AID sender = undelivered.sender();
        if (sender == null || undelivered.performative() == Performative.FAILURE
                || !exists(sender)) {
            return;
        }
        ACLMessage failure = ACLMessage.builder(Performative.FAILURE)
                .receiver(sender)
                .conversationId(undelivered.conversationId())
                .inReplyTo(undelivered.replyWith())
                .content(undelivered.performative() + " not delivered: " + reason.getMessage())
                .build();
        try {
            post(failure).whenComplete((ok, refusal) -> {
                if (refusal != null) {
                    LOG.log(Level.WARNING, "could not tell {0} that its message failed: {1}", new Object[] {sender, refusal});
                }
            });
        } catch (SiebogException e) {
            LOG.log(Level.WARNING, "could not tell {0} that its delayed message failed: {1}", new Object[] {sender, e.getMessage()});
        }
    }
}
