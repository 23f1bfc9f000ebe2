package org.siebog.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.agent.AID;
import org.siebog.agentmanager.LocalAgents;
import org.siebog.agentmanager.UnknownAgentException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodeException;
import org.siebog.cluster.RemoteNodes;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.message.ACLMessage;
import org.siebog.message.MailboxFullException;
import org.siebog.message.MalformedMessageException;
import org.siebog.message.MessageTooLargeException;
import org.siebog.message.Performative;
import org.siebog.placement.PlacementSelector;
import org.siebog.placement.PlacementSelectors;
import org.siebog.platform.PlatformConfig;
import org.siebog.platform.SiebogException;

/**
 * Routes messages to mailboxes, by reference: a message to an agent on this node goes straight
 * into its mailbox, never serialised. The poster's own thread does the admission, so there is no
 * dispatcher thread for every message to pass through. A message to an agent on another node goes
 * straight to that node (batched with others bound there, see {@code NodeLink}); no third node
 * or broker is involved. Agents reach the router through their {@link org.siebog.agent.AgentContext};
 * everyone else through the MessageManager EJB.
 */
@ApplicationScoped
public class MessageRouter {

    private static final Logger LOG = Logger.getLogger(MessageRouter.class.getName());

    @Inject
    AgentHost host;

    @Inject
    AgentExecutor executor;

    @Inject
    AgentDirectory directory;

    @Inject
    LocalAgents local;

    @Inject
    ClusterNode cluster;

    @Inject
    RemoteNodes remote;

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    private final PlacementSelector balancer = PlacementSelectors.fromSystemProperty();

    /**
     * Posts now. A refusal by this node (unknown receiver, full mailbox, bad message) is thrown; the
     * result completes when every receiver's node has admitted the message, or with the refusal of
     * another node.
     */
    public CompletableFuture<Void> post(ACLMessage message) {
        check(message);
        List<AID> receivers = message.receivers();
        if (receivers.size() == 1) {
            return postToOne(message, receivers.get(0));
        }
        return postToAll(message, receivers);
    }

    /** An agent's send: like {@link #post(ACLMessage)}, but another node's refusal comes back as a FAILURE message. */
    public void send(ACLMessage message) {
        post(message).whenComplete((ok, refusal) -> {
            if (refusal != null) {
                notifySender(message, refusalOf(refusal));
            }
        });
    }

    /** See {@link org.siebog.message.MessageManager#post(ACLMessage, Duration)}. */
    public void post(ACLMessage message, Duration delay) {
        check(message);
        for (AID receiver : message.receivers()) {
            if (host.mailbox(receiver) == null && directory.lookup(receiver).isEmpty()) {
                throw new UnknownAgentException(receiver);
            }
        }
        executor.timer().schedule(() -> postDelayed(message), Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    }

    /** Admits a message that another node routed here. */
    public void admitHere(AID receiver, ACLMessage message) {
        Mailbox mailbox = host.mailbox(receiver);
        if (mailbox == null) {
            DirectoryEntry entry = directory.lookup(receiver).orElseThrow(() -> new UnknownAgentException(receiver));
            if (!entry.balanced()) {
                throw new UnknownAgentException(receiver);
            }
            mailbox = local.instanceOf(entry);
        }
        admit(mailbox, message);
    }

    private void check(ACLMessage message) {
        if (message.receivers().isEmpty()) {
            throw new MalformedMessageException("a message needs at least one receiver");
        }
        int max = PlatformConfig.SYSTEM.maxContentChars();
        if (message.content() != null && message.content().length() > max) {
            throw new MessageTooLargeException("the content (in characters)", message.content().length(), max);
        }
    }

    private CompletableFuture<Void> postToOne(ACLMessage message, AID receiver) {
        Mailbox mailbox = host.owned(receiver);
        if (mailbox != null) { // the common case stays a map lookup: no directory read
            admit(mailbox, message);
            return DONE;
        }
        String node = nodeFor(receiver);
        if (node.equals(cluster.name())) {
            admitHere(receiver, message);
            return DONE;
        }
        return remote.deliver(node, receiver, message);
    }

    /**
     * Receivers on this node get the message all or none: every mailbox is reserved before any
     * message is enqueued. Receivers on other nodes are admitted there, each on its own.
     */
    private CompletableFuture<Void> postToAll(ACLMessage message, List<AID> receivers) {
        List<Mailbox> here = new ArrayList<>();
        List<AID> hereIds = new ArrayList<>();
        Map<AID, String> elsewhere = new LinkedHashMap<>();
        for (AID receiver : receivers) {
            Mailbox mailbox = host.owned(receiver);
            String node = mailbox != null ? cluster.name() : nodeFor(receiver);
            if (mailbox == null && node.equals(cluster.name())) {
                mailbox = instanceHere(receiver);
            }
            if (mailbox != null) {
                here.add(mailbox);
                hereIds.add(receiver);
            } else {
                elsewhere.put(receiver, node);
            }
        }
        for (int i = 0; i < here.size(); i++) {
            if (!here.get(i).reserve()) {
                for (int j = 0; j < i; j++) {
                    here.get(j).cancelReservation();
                }
                throw new MailboxFullException(hereIds.get(i), here.get(i).capacity());
            }
        }
        here.forEach(mailbox -> mailbox.enqueue(message));
        if (elsewhere.isEmpty()) {
            return DONE;
        }
        return CompletableFuture.allOf(elsewhere.entrySet().stream()
                .map(e -> remote.deliver(e.getValue(), e.getKey(), message))
                .toArray(CompletableFuture[]::new));
    }

    /** The node to handle the next message for {@code receiver}: its own, or for a balanced agent, the selector's pick. */
    private String nodeFor(AID receiver) {
        DirectoryEntry entry = directory.lookup(receiver).orElseThrow(() -> new UnknownAgentException(receiver));
        return entry.balanced() ? balancer.select(cluster.members()) : entry.node();
    }

    private Mailbox instanceHere(AID receiver) {
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

    private static void admit(Mailbox mailbox, ACLMessage message) {
        if (!mailbox.reserve()) {
            throw new MailboxFullException(mailbox.owner(), mailbox.capacity());
        }
        mailbox.enqueue(message);
    }

    private static SiebogException refusalOf(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof SiebogException se ? se : new RemoteNodeException("delivery failed: " + cause);
    }

    private void postDelayed(ACLMessage message) {
        try {
            send(message);
        } catch (SiebogException e) {
            LOG.log(Level.INFO, "delayed message could not be delivered: {0}", e.getMessage());
            notifySender(message, e);
        }
    }

    private void notifySender(ACLMessage undelivered, SiebogException reason) {
        AID sender = undelivered.sender();
        if (sender == null || undelivered.performative() == Performative.FAILURE
                || (host.mailbox(sender) == null && directory.lookup(sender).isEmpty())) {
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
