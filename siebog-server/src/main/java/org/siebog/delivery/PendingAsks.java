package org.siebog.delivery;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.siebog.api.ACLMessage;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.SiebogException;

/**
 * The questions one agent asked on this node ({@link org.siebog.api.AgentContext#ask}) that await
 * their answers, by the question's {@code replyWith}. Bounded: an agent that asks in a loop without
 * ever getting answers is refused beyond {@code siebog.agent.max-pending-asks}, not let grow the heap.
 *
 * <p>Each question ends once: answered, failed (timeout, refusal) or dropped (the agent stopped).
 * Whichever comes first removes it and runs its clean-up (its timer, its reply inbox); the others
 * then find nothing. Answers and failures are handed over on the agent's lane (see {@link Mailbox}),
 * so the stages' actions run between the agent's messages.
 */
final class PendingAsks {

    private record Question(CompletableFuture<ACLMessage> answer, Runnable cleanUp) {
    }

    private final int limit;
    private final Map<String, Question> byReplyWith = new ConcurrentHashMap<>();

    PendingAsks(int limit) {
        this.limit = limit;
    }

    /**
     * Opens a question; {@code cleanUp} runs when it ends, however it ends.
     *
     * @throws MalformedMessageException a question with this {@code replyWith} is already waiting
     * @throws AsksFullException         the agent awaits as many answers as it may
     */
    CompletableFuture<ACLMessage> open(String replyWith, Runnable cleanUp) {
        if (byReplyWith.size() >= limit) {
            throw new AsksFullException(limit);
        }
        Question question = new Question(new CompletableFuture<>(), cleanUp);
        if (byReplyWith.putIfAbsent(replyWith, question) != null) {
            throw new MalformedMessageException("a question with replyWith '" + replyWith + "' is already waiting for its answer");
        }
        return question.answer();
    }

    /** Whether {@code message} answers an open question: if so, the question ends with it. */
    boolean answer(ACLMessage message) {
        String inReplyTo = message.inReplyTo();
        Question question = inReplyTo == null ? null : byReplyWith.remove(inReplyTo);
        if (question == null) {
            return false;
        }
        question.cleanUp().run();
        question.answer().complete(message);
        return true;
    }

    /** Whether a question with this {@code replyWith} is still open. */
    boolean awaits(String replyWith) {
        return replyWith != null && byReplyWith.containsKey(replyWith);
    }

    /** Ends a question with {@code failure}, unless it has ended already. */
    void fail(String replyWith, Throwable failure) {
        Question question = byReplyWith.remove(replyWith);
        if (question != null) {
            question.cleanUp().run();
            question.answer().completeExceptionally(failure);
        }
    }

    /** Ends a question that was never sent (the send was refused): its stage is not handed out. */
    void withdraw(String replyWith) {
        Question question = byReplyWith.remove(replyWith);
        if (question != null) {
            question.cleanUp().run();
        }
    }

    /** Drops every open question (the agent stopped): clean-ups run, stages never complete. */
    void dropAll() {
        byReplyWith.keySet().forEach(this::withdraw);
    }

    int size() {
        return byReplyWith.size();
    }

    /** 503: the agent awaits as many answers as it may; a question may be asked again once some are answered or timed out. */
    static final class AsksFullException extends SiebogException {

        AsksFullException(int limit) {
            super("this agent already awaits answers to " + limit + " questions, its limit on this node"
                    + " (siebog.agent.max-pending-asks); ask again once some are answered or timed out");
        }

        @Override
        public int status() {
            return 503;
        }
    }
}
