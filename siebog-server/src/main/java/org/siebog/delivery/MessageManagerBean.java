package org.siebog.delivery;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.siebog.api.ACLMessage;
import org.siebog.api.MessageManager;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.platform.Failures;

/** The MessageManager for callers outside an agent (REST, other deployments); agents send through their context. */
@Singleton
@Local(MessageManager.class)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class MessageManagerBean implements MessageManager {

    private static final long ADMISSION_TIMEOUT_S = 35;

    @Inject
    MessageRouter router;

    @Inject
    ReplyInboxes inboxes;

    @Override
    public void post(ACLMessage message) {
        await(postAsync(message));
    }

    @Override
    public CompletableFuture<Void> postAsync(ACLMessage message) {
        return admission(router.post(message));
    }

    /**
     * A post's outcome for a caller outside agents: it completes once every receiver's node has
     * admitted the message, so a refusal reaches the caller as itself, and gives up after
     * {@value #ADMISSION_TIMEOUT_S} s.
     */
    static CompletableFuture<Void> admission(CompletableFuture<Void> posted) {
        return posted.orTimeout(ADMISSION_TIMEOUT_S, TimeUnit.SECONDS).exceptionallyCompose(failure -> {
            return CompletableFuture.failedFuture(Failures.refusal(failure, cause -> cause instanceof TimeoutException
                    ? new RemoteNodeException("the receiver's node did not admit the message within " + ADMISSION_TIMEOUT_S + " s")
                    : new RemoteNodeException("a receiver's node failed: " + cause)));
        });
    }

    @Override
    public void post(ACLMessage message, Duration delay) {
        router.post(message, delay);
    }

    @Override
    public ACLMessage ask(ACLMessage message, Duration timeout) {
        return await(askAsync(message, timeout));
    }

    @Override
    public CompletableFuture<ACLMessage> askAsync(ACLMessage message, Duration timeout) {
        return inboxes.ask(message, timeout);
    }

    /** Waits for an outcome that is always a value or a {@link SiebogException} (the async forms map every failure to one). */
    private static <T> T await(CompletableFuture<T> outcome) {
        try {
            return outcome.get();
        } catch (ExecutionException e) {
            throw Failures.refusal(e, cause -> new RemoteNodeException("a receiver's node failed: " + cause));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteNodeException("interrupted while waiting for the receiver's node");
        }
    }
}
