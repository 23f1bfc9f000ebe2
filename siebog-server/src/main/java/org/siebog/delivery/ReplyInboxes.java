package org.siebog.delivery;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.agent.AID;
import org.siebog.agent.Agent;
import org.siebog.agent.AgentContext;
import org.siebog.agent.AgentKind;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodeException;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.message.ACLMessage;
import org.siebog.message.NoReplyException;
import org.siebog.platform.PlatformConfig;
import org.siebog.platform.SiebogException;

/**
 * Lets a caller outside the platform ask an agent and wait for its answer: a short-lived inbox
 * (an AID of its own in the directory, so a reply from any node finds it) becomes the message's
 * {@code replyTo}, and the first message to arrive there is the answer.
 */
@ApplicationScoped
public class ReplyInboxes {

    /** The agent class an inbox shows under in the directory while it waits. */
    public static final String INBOX_CLASS = "(reply inbox)";

    @Inject
    MessageRouter router;

    @Inject
    AgentHost host;

    @Inject
    AgentDirectory directory;

    @Inject
    ClusterNode cluster;

    public ACLMessage ask(ACLMessage question, Duration timeout) {
        AID inbox = new AID("reply-" + UUID.randomUUID(), PlatformConfig.SYSTEM.platformName());
        CompletableFuture<ACLMessage> answer = new CompletableFuture<>();
        directory.register(new DirectoryEntry(inbox, INBOX_CLASS, AgentKind.STATEFUL, cluster.name(), false, Map.of()));
        host.host(inbox, new Inbox(answer)).activate();
        try {
            router.post(question.withReplyTo(inbox)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new NoReplyException(question.receivers(), timeout);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof SiebogException refusal ? refusal : new RemoteNodeException("delivery failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NoReplyException(question.receivers(), timeout);
        } finally {
            host.stop(inbox, () -> directory.unregister(inbox));
        }
    }

    private record Inbox(CompletableFuture<ACLMessage> answer) implements Agent {

        @Override
        public void start(AgentContext context, Map<String, String> args) {
        }

        @Override
        public void handle(AgentContext context, ACLMessage message) {
            answer.complete(message);
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
