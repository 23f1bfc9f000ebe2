package org.siebog.delivery;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentContext;
import org.siebog.api.NoReplyException;
import org.siebog.api.RemoteNodeException;
import org.siebog.cluster.ClusterNode;
import org.siebog.platform.Failures;
import org.siebog.platform.PlatformConfig;

/**
 * Lets a caller outside the platform ask an agent and wait for its answer: a short-lived inbox
 * becomes the message's {@code replyTo}, and the first message to arrive there is the answer.
 *
 * <p>An inbox is in no directory: its name, {@code reply-NODE-UUID}, says which node holds it, so
 * a reply from any node finds it and an ask costs no cluster-wide write. Agent names of that form
 * are reserved.
 */
@ApplicationScoped
public class ReplyInboxes {

    private static final Logger LOG = Logger.getLogger(ReplyInboxes.class.getName());
    private static final String PREFIX = "reply-";
    private static final int UUID_CHARS = 36;

    @Inject
    MessageRouter router;

    @Inject
    AgentHost host;

    @Inject
    ClusterNode cluster;

    /** Completes with the first answer, or with {@link NoReplyException} after {@code timeout}, or with the question's refusal. */
    public CompletableFuture<ACLMessage> ask(ACLMessage question, Duration timeout) {
        CompletableFuture<ACLMessage> answer = new CompletableFuture<>();
        AID inbox = open(answer::complete);
        CompletableFuture<Void> admitted;
        try {
            admitted = router.post(question.withReplyTo(inbox));
        } catch (RuntimeException refused) {
            close(inbox);
            throw refused;
        }
        // The answer may come before the question's log write is acknowledged: it is taken at once.
        admitted.whenComplete((ok, refused) -> {
            if (refused != null) {
                answer.completeExceptionally(refused);
            }
        });
        return answer.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((reply, failure) -> {
            close(inbox);
            if (failure == null) {
                return reply;
            }
            throw Failures.refusal(failure, cause -> cause instanceof TimeoutException ? new NoReplyException(question.receivers(), timeout)
                    : new RemoteNodeException("delivery failed: " + cause));
        });
    }

    /**
     * An inbox on this node for the answers to a balanced agent's question: a reply to the agent
     * itself could be balanced to another node's instance, which did not ask. The answers (messages
     * in reply to {@code replyWith}, at most {@code answers} of them: what the question can take) are
     * handed to {@code asker}'s questions on its lane; anything else sent there is dropped, as no one
     * but the question's receivers knows the inbox.
     *
     * @return the inbox, to be {@link #close(AID) closed} when the question ends
     */
    AID forward(Mailbox asker, String replyWith, int answers) {
        AtomicInteger forwarded = new AtomicInteger();
        return open(message -> {
            // Counted: more than the question can take would only queue tasks on the asker's lane.
            if (replyWith.equals(message.inReplyTo()) && forwarded.incrementAndGet() <= answers) {
                asker.runBetweenMessages(() -> asker.asks().answer(message));
            } else {
                LOG.fine(() -> "dropped a message to " + asker.owner() + "'s reply inbox that answers no question of it: " + message);
            }
        });
    }

    private AID open(Consumer<ACLMessage> answers) {
        AID inbox = new AID(PREFIX + cluster.name() + "-" + UUID.randomUUID(), PlatformConfig.SYSTEM.platformName());
        host.host(inbox, new Inbox(answers)).activate();
        return inbox;
    }

    void close(AID inbox) {
        host.stop(inbox, () -> { });
    }

    /** The node holding the reply inbox {@code aid}, or empty when {@code aid} does not name one. */
    public static Optional<String> nodeOf(AID aid) {
        String name = aid.name();
        int uuidAt = name.length() - UUID_CHARS;
        if (!name.startsWith(PREFIX) || uuidAt < PREFIX.length() + 2 || name.charAt(uuidAt - 1) != '-') {
            return Optional.empty();
        }
        try {
            UUID.fromString(name.substring(uuidAt));
        } catch (IllegalArgumentException notUuid) {
            return Optional.empty();
        }
        return Optional.of(name.substring(PREFIX.length(), uuidAt - 1));
    }

    private record Inbox(Consumer<ACLMessage> answers) implements Agent {

        @Override
        public void start(AgentContext context, Map<String, String> args) {
        }

        @Override
        public void handle(AgentContext context, ACLMessage message) {
            answers.accept(message);
        }

        @Override
        public void stop(AgentContext context) {
        }

        @Override
        public byte[] saveState() {
            return new byte[0]; // an inbox lives on its node only
        }

        @Override
        public void restoreState(AgentContext context, byte[] state) {
        }
    }
}
