package org.siebog.delivery;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.NoReplyException;
import org.siebog.api.Performative;
import org.siebog.api.SiebogException;
import org.siebog.api.Topics;
import org.siebog.platform.PlatformConfig;

/**
 * Agents' questions ({@link org.siebog.api.AgentContext#ask}): sends each with a {@code replyWith}
 * and a {@code replyTo} that brings the answer back to the asking agent on this node, and ends it
 * with the answer, the question's refusal or the timeout, each handed over on the agent's lane.
 *
 * <p>Where the answer comes back: an agent that lives on one node is its own {@code replyTo}, so
 * its answer is an ordinary message to it (a stateful agent's is logged like any other, and after
 * a failover reaches the restored agent's handler). A balanced agent's instance on this node
 * cannot be addressed that way (a message to the agent may go to any node), so its answer comes
 * through a reply inbox of this node (see {@link ReplyInboxes#forward}).
 */
@ApplicationScoped
class AgentAsks {

    private static final Logger LOG = Logger.getLogger(AgentAsks.class.getName());
    /** FIPA's name of the Contract Net protocol, whose late proposals a gathering rejects. */
    static final String CONTRACT_NET = "fipa-contract-net";
    /** The user property that marks a FAILURE standing for a receiver that could not be reached. */
    static final String UNDELIVERED = "siebog-undelivered";

    @Inject
    AgentHost host;

    @Inject
    MessageRouter router;

    @Inject
    ReplyInboxes inboxes;

    @Inject
    AgentExecutor executor;

    CompletionStage<ACLMessage> ask(AID self, ACLMessage question, Duration timeout) {
        Asking asking = asking(self, question, timeout, 1);
        CompletableFuture<ACLMessage> answer;
        try {
            answer = asking.asks().open(asking.replyWith(), asking.cleanUp());
        } catch (RuntimeException refused) {
            asking.cleanUp().run();
            throw refused;
        }
        CompletableFuture<Void> admitted;
        try {
            admitted = router.sendFrom(self, asking.question());
        } catch (RuntimeException refused) {
            asking.asks().withdraw(asking.replyWith());
            throw refused;
        }
        admitted.whenComplete((ok, refusal) -> {
            if (refusal != null) {
                asking.asker().runBetweenMessages(() -> asking.asks().fail(asking.replyWith(), MessageRouter.refusalOf(refusal)));
            }
        });
        return answer.minimalCompletionStage();
    }

    /**
     * Asks each receiver on its own (a message to each, one {@code replyWith}) and gathers the
     * answers (see {@link PendingAsks#gather}). A receiver the question cannot reach answers, in
     * effect, FAILURE: the gathering gets one from it, with the reason (see {@link #undelivered}),
     * and does not wait for it. Only a refusal of the question itself (malformed, too large) is
     * thrown. A topic among the receivers makes the gathering last until its timeout (who answers
     * is not known in advance).
     */
    CompletionStage<List<ACLMessage>> askAll(AID self, ACLMessage question, Duration timeout) {
        List<AID> receivers = question.receivers();
        boolean toTopic = receivers.stream().anyMatch(Topics::isTopic);
        int expected = toTopic ? Integer.MAX_VALUE : receivers.size();
        Asking asking = asking(self, question, timeout, toTopic ? PlatformConfig.SYSTEM.maxPendingAsks() : 2 * receivers.size());
        CompletableFuture<List<ACLMessage>> answers;
        try {
            answers = asking.asks().gather(asking.replyWith(), expected, lateAnswers(self, question), asking.cleanUp());
        } catch (RuntimeException refused) {
            asking.cleanUp().run();
            throw refused;
        }
        for (AID receiver : receivers) {
            CompletableFuture<Void> admitted;
            try {
                admitted = router.sendFrom(self, asking.question().withReceivers(List.of(receiver)));
            } catch (SiebogException refused) {
                if (refused.status() < 500 && refused.status() != 404) {
                    asking.asks().withdraw(asking.replyWith()); // the question itself: the same for every receiver
                    throw refused;
                }
                admitted = CompletableFuture.failedFuture(refused);
            }
            admitted.whenComplete((ok, refusal) -> {
                if (refusal != null) {
                    ACLMessage failure = undelivered(asking.question(), receiver, self, MessageRouter.refusalOf(refusal));
                    asking.asker().runBetweenMessages(() -> asking.asks().answer(failure));
                }
            });
        }
        return answers.minimalCompletionStage();
    }

    /** A question on its way: who asks, under which {@code replyWith}, and how it is cleaned up when it ends. */
    private record Asking(Mailbox asker, PendingAsks asks, ACLMessage question, String replyWith, Runnable cleanUp) {
    }

    /**
     * Checks the timeout, gives the question its {@code replyWith} and {@code replyTo} (see the class
     * comment; a reply inbox forwards at most {@code answers} answers) and starts its timer.
     */
    private Asking asking(AID self, ACLMessage question, Duration timeout, int answers) {
        long maxMillis = PlatformConfig.SYSTEM.maxAwaitReplyMillis();
        if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > maxMillis) {
            throw new MalformedMessageException("an ask's timeout must be from 1 to " + maxMillis
                    + " ms (siebog.message.max-await-reply-ms); got " + timeout.toMillis() + " ms");
        }
        Mailbox asker = host.mailbox(self);
        if (asker == null) {
            throw new IllegalStateException(self + " is not running on this node: an agent asks from its own calls");
        }
        String replyWith = question.replyWith() != null ? question.replyWith() : asker.nextQuestionName();
        AID replyTo = host.owned(self) != null ? self : inboxes.forward(asker, replyWith, answers);
        PendingAsks asks = asker.asks();
        // The timeout is handed over on the lane, after this call: the question is open by then.
        ScheduledFuture<?> timer = executor.timer().schedule(
                () -> asker.runBetweenMessages(() -> asks.fail(replyWith, new NoReplyException(question.receivers(), timeout))),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        Runnable cleanUp = () -> {
            timer.cancel(false);
            if (!replyTo.equals(self)) {
                inboxes.close(replyTo);
            }
        };
        return new Asking(asker, asks, asked(question, self, replyTo, replyWith), replyWith, cleanUp);
    }

    /**
     * What a gathering does with an answer after its timeout: a call for proposals
     * ({@value #CONTRACT_NET}) rejects a late PROPOSE at once (REJECT_PROPOSAL, "too late"), as FIPA's
     * Contract Net says; any other late answer reaches the agent as an ordinary message.
     */
    private Predicate<ACLMessage> lateAnswers(AID self, ACLMessage question) {
        if (!CONTRACT_NET.equals(question.protocol())) {
            return late -> false;
        }
        return late -> {
            if (late.performative() != Performative.PROPOSE) {
                return false;
            }
            try {
                router.send(self, late.reply(Performative.REJECT_PROPOSAL).sender(self)
                        .content("too late: proposals were due by " + (question.replyBy() != null ? question.replyBy() : "the deadline")).build());
            } catch (SiebogException e) {
                LOG.log(Level.INFO, "{0} could not reject the late proposal of {1}: {2}", new Object[] {self, late.sender(), e.getMessage()});
            }
            return true;
        };
    }

    /**
     * The FAILURE a gathering counts for a receiver its question could not reach, as if that receiver
     * had answered it: sender the receiver, content {@code "not delivered: <reason>"}, and the user
     * property {@value #UNDELIVERED} {@code "true"} (no agent sent it).
     */
    static ACLMessage undelivered(ACLMessage question, AID receiver, AID self, SiebogException reason) {
        return ACLMessage.builder(Performative.FAILURE).sender(receiver).receiver(self).conversationId(question.conversationId())
                .protocol(question.protocol()).inReplyTo(question.replyWith()).userProperty(UNDELIVERED, "true")
                .content("not delivered: " + reason.getMessage()).build();
    }

    private static ACLMessage asked(ACLMessage question, AID self, AID replyTo, String replyWith) {
        return new ACLMessage(question.performative(), question.sender() != null ? question.sender() : self, question.receivers(),
                replyTo, question.content(), question.language(), question.encoding(), question.ontology(), question.protocol(),
                question.conversationId(), replyWith, question.inReplyTo(), question.replyBy(), question.userProperties());
    }
}
