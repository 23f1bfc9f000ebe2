package org.siebog.delivery;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.agent.AID;
import org.siebog.agentmanager.UnknownAgentException;
import org.siebog.message.ACLMessage;
import org.siebog.message.MailboxFullException;
import org.siebog.message.MalformedMessageException;
import org.siebog.message.MessageTooLargeException;
import org.siebog.message.Performative;
import org.siebog.platform.PlatformConfig;
import org.siebog.platform.SiebogException;

/**
 * Routes messages to mailboxes, by reference: a message to an agent on this node goes straight
 * into its mailbox, never serialised. The poster's own thread does the admission, so there is no
 * dispatcher thread for every message to pass through. Agents reach it through their
 * {@link org.siebog.agent.AgentContext}; everyone else through the MessageManager EJB.
 */
@ApplicationScoped
public class MessageRouter {

    private static final Logger LOG = Logger.getLogger(MessageRouter.class.getName());

    @Inject
    AgentHost host;

    @Inject
    AgentExecutor executor;

    /** See {@link org.siebog.message.MessageManager#post(ACLMessage)}. */
    public void post(ACLMessage message) {
        check(message);
        List<AID> receivers = message.receivers();
        if (receivers.size() == 1) {
            postToOne(message, receivers.get(0));
        } else {
            postToAll(message, receivers);
        }
    }

    /** See {@link org.siebog.message.MessageManager#post(ACLMessage, Duration)}. */
    public void post(ACLMessage message, Duration delay) {
        check(message);
        for (AID receiver : message.receivers()) {
            mailboxOf(receiver);
        }
        executor.timer().schedule(() -> postDelayed(message), Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
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

    private void postToOne(ACLMessage message, AID receiver) {
        Mailbox mailbox = mailboxOf(receiver);
        if (!mailbox.reserve()) {
            throw new MailboxFullException(receiver, mailbox.capacity());
        }
        mailbox.enqueue(message);
    }

    /** All receivers or none: every mailbox is reserved before any message is enqueued. */
    private void postToAll(ACLMessage message, List<AID> receivers) {
        Mailbox[] mailboxes = new Mailbox[receivers.size()];
        for (int i = 0; i < mailboxes.length; i++) {
            mailboxes[i] = mailboxOf(receivers.get(i));
        }
        for (int i = 0; i < mailboxes.length; i++) {
            if (!mailboxes[i].reserve()) {
                for (int j = 0; j < i; j++) {
                    mailboxes[j].cancelReservation();
                }
                throw new MailboxFullException(receivers.get(i), mailboxes[i].capacity());
            }
        }
        for (Mailbox mailbox : mailboxes) {
            mailbox.enqueue(message);
        }
    }

    private Mailbox mailboxOf(AID receiver) {
        Mailbox mailbox = host.mailbox(receiver);
        if (mailbox == null) {
            // Not on this node; with one node that means nowhere (the cluster routes to other nodes here).
            throw new UnknownAgentException(receiver);
        }
        return mailbox;
    }

    private void postDelayed(ACLMessage message) {
        try {
            post(message);
        } catch (SiebogException e) {
            LOG.log(Level.INFO, "delayed message could not be delivered: {0}", e.getMessage());
            notifySender(message, e);
        }
    }

    private void notifySender(ACLMessage undelivered, SiebogException reason) {
        AID sender = undelivered.sender();
        if (sender == null || host.mailbox(sender) == null || undelivered.performative() == Performative.FAILURE) {
            return;
        }
        ACLMessage failure = ACLMessage.builder(Performative.FAILURE)
                .receiver(sender)
                .conversationId(undelivered.conversationId())
                .inReplyTo(undelivered.replyWith())
                .content("delayed " + undelivered.performative() + " not delivered: " + reason.getMessage())
                .build();
        try {
            post(failure);
        } catch (SiebogException e) {
            LOG.log(Level.WARNING, "could not tell {0} that its delayed message failed: {1}", new Object[] {sender, e.getMessage()});
        }
    }
}
