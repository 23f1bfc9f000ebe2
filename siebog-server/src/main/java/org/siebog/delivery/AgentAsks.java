package org.siebog.delivery;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.NoReplyException;
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

    @Inject
    AgentHost host;

    @Inject
    MessageRouter router;

    @Inject
    ReplyInboxes inboxes;

    @Inject
    AgentExecutor executor;

    CompletionStage<ACLMessage> ask(AID self, ACLMessage question, Duration timeout) {
        long maxMillis = PlatformConfig.SYSTEM.maxAwaitReplyMillis();
        if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > maxMillis) {
            throw new MalformedMessageException("an ask's timeout must be from 1 to " + maxMillis
                    + " ms (siebog.message.max-await-reply-ms); got " + timeout.toMillis() + " ms");
        }
        Mailbox asker = host.mailbox(self);
        if (asker == null) {
            throw new IllegalStateException(self + " is not running on this node: an agent asks from its own calls");
        }
        String replyWith = question.replyWith() != null ? question.replyWith() : "ask-" + UUID.randomUUID();
        AID replyTo = host.owned(self) != null ? self : inboxes.forward(asker, replyWith);
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
        CompletableFuture<ACLMessage> answer;
        try {
            answer = asks.open(replyWith, cleanUp);
        } catch (RuntimeException refused) {
            cleanUp.run();
            throw refused;
        }
        CompletableFuture<Void> admitted;
        try {
            admitted = router.sendFrom(self, asked(question, self, replyTo, replyWith));
        } catch (RuntimeException refused) {
            asks.withdraw(replyWith);
            throw refused;
        }
        admitted.whenComplete((ok, refusal) -> {
            if (refusal != null) {
                asker.runBetweenMessages(() -> asks.fail(replyWith, MessageRouter.refusalOf(refusal)));
            }
        });
        return answer.minimalCompletionStage();
    }

    private static ACLMessage asked(ACLMessage question, AID self, AID replyTo, String replyWith) {
        return new ACLMessage(question.performative(), question.sender() != null ? question.sender() : self, question.receivers(),
                replyTo, question.content(), question.language(), question.encoding(), question.ontology(), question.protocol(),
                question.conversationId(), replyWith, question.inReplyTo(), question.replyBy(), question.userProperties());
    }
}
