package org.siebog.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.siebog.api.ACLMessage;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.NoReplyException;
import org.siebog.api.Performative;
import org.siebog.api.SiebogException;
import org.siebog.platform.PlatformConfig;

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

    /**
     * An open question: for {@link #open} the future of its first answer; for {@link #gather} the
     * answers so far and the future of all of them, complete once every receiver gave a final one.
     */
    private static final class Question {
        final Runnable cleanUp;
        final CompletableFuture<ACLMessage> first;
        final CompletableFuture<List<ACLMessage>> all;
        final List<ACLMessage> answers = new ArrayList<>();
        final Predicate<ACLMessage> lateAnswer;
        int finalsAwaited;

        Question(Runnable cleanUp, CompletableFuture<ACLMessage> first, CompletableFuture<List<ACLMessage>> all, int finalsAwaited,
                Predicate<ACLMessage> lateAnswer) {
            this.cleanUp = cleanUp;
            this.first = first;
            this.all = all;
            this.finalsAwaited = finalsAwaited;
            this.lateAnswer = lateAnswer;
        }
    }

    private final int limit;
    private final Map<String, Question> byReplyWith = new ConcurrentHashMap<>();
    private final LateAnswers timedOut;

    PendingAsks(int limit) {
        this(limit, Duration.ofMillis(PlatformConfig.SYSTEM.maxAwaitReplyMillis()));
    }

    /** {@code lateFor}: how long a gathering that timed out still takes its late answers. */
    PendingAsks(int limit, Duration lateFor) {
        this.limit = limit;
        this.timedOut = new LateAnswers(limit, lateFor);
    }

    /**
     * Opens a question; {@code cleanUp} runs when it ends, however it ends.
     *
     * @throws MalformedMessageException a question with this {@code replyWith} is already waiting
     * @throws AsksFullException         the agent awaits as many answers as it may
     */
    CompletableFuture<ACLMessage> open(String replyWith, Runnable cleanUp) {
        CompletableFuture<ACLMessage> first = new CompletableFuture<>();
        add(replyWith, new Question(cleanUp, first, null, 1, null));
        return first;
    }

    /**
     * Opens a question to {@code receivers} agents that gathers their answers: it ends when each has
     * given a final one (any but AGREE, which says a final answer will follow), or at its timeout
     * with what came by then. {@code lateAnswer} is offered each answer that comes after the
     * timeout, for as long as this node keeps the question's memory; it returns whether it took the
     * answer (else the answer reaches the agent as an ordinary message).
     */
    CompletableFuture<List<ACLMessage>> gather(String replyWith, int receivers, Predicate<ACLMessage> lateAnswer, Runnable cleanUp) {
        CompletableFuture<List<ACLMessage>> all = new CompletableFuture<>();
        add(replyWith, new Question(cleanUp, null, all, receivers, lateAnswer));
        return all;
    }

    private void add(String replyWith, Question question) {
        if (byReplyWith.size() >= limit) {
            throw new AsksFullException(limit);
        }
        if (byReplyWith.putIfAbsent(replyWith, question) != null) {
            throw new MalformedMessageException("a question with replyWith '" + replyWith + "' is already waiting for its answer");
        }
    }

    /**
     * Whether {@code message} answers a question of this agent (an open one, or a gathering that timed
     * out and takes it late): if so, the question has it, and the agent does not.
     */
    boolean answer(ACLMessage message) {
        String inReplyTo = message.inReplyTo();
        if (inReplyTo == null || (byReplyWith.isEmpty() && timedOut.isEmpty())) {
            return false; // most agents ask nothing: no lookup (an answer's inReplyTo is a new string, hashed anew)
        }
        Question question = byReplyWith.get(inReplyTo);
        if (question == null) {
            return timedOut.offer(inReplyTo, message);
        }
        if (question.all == null) {
            if (end(inReplyTo, question)) {
                question.first.complete(message);
            }
            return true;
        }
        question.answers.add(message);
        if (message.performative() != Performative.AGREE && --question.finalsAwaited <= 0 && end(inReplyTo, question)) {
            question.all.complete(List.copyOf(question.answers));
        }
        return true;
    }

    /** Removes and cleans up a question that ends now; false when it ended otherwise meanwhile (dropped). */
    private boolean end(String replyWith, Question question) {
        if (!byReplyWith.remove(replyWith, question)) {
            return false;
        }
        question.cleanUp.run();
        return true;
    }

    /** Whether a question with this {@code replyWith} is still open. */
    boolean awaits(String replyWith) {
        return replyWith != null && byReplyWith.containsKey(replyWith);
    }

    /**
     * Ends a question with {@code failure}, unless it has ended already. A gathering that timed out
     * ({@link NoReplyException}) ends with the answers it has, and keeps taking late ones.
     */
    void fail(String replyWith, Throwable failure) {
        Question question = byReplyWith.remove(replyWith);
        if (question == null) {
            return;
        }
        question.cleanUp.run();
        if (question.all == null) {
            question.first.completeExceptionally(failure);
        } else if (failure instanceof NoReplyException) {
            timedOut.keep(replyWith, question.lateAnswer);
            question.all.complete(List.copyOf(question.answers));
        } else {
            question.all.completeExceptionally(failure);
        }
    }

    /** Ends a question that was never sent (the send was refused): its stage is not handed out. */
    void withdraw(String replyWith) {
        Question question = byReplyWith.remove(replyWith);
        if (question != null) {
            question.cleanUp.run();
        }
    }

    /** Drops every open question (the agent stopped): clean-ups run, stages never complete. */
    void dropAll() {
        byReplyWith.keySet().forEach(this::withdraw);
    }

    int size() {
        return byReplyWith.size();
    }

    /** The {@code replyWith}s of the questions open now, in no order. */
    List<String> open() {
        return List.copyOf(byReplyWith.keySet());
    }

    /**
     * Gatherings that timed out, by {@code replyWith}, each with what takes its late answers: at most
     * as many as the agent may have open questions (the oldest forgotten first), each for
     * {@code lateFor} (then a late answer is an ordinary message).
     */
    private static final class LateAnswers {
        private record Late(Predicate<ACLMessage> taker, long untilNanos) {
        }

        private final Map<String, Late> byReplyWith;
        private final long lateForNanos;

        LateAnswers(int limit, Duration lateFor) {
            this.lateForNanos = lateFor.toNanos();
            this.byReplyWith = new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Late> eldest) {
                    return size() > limit;
                }
            };
        }

        synchronized void keep(String replyWith, Predicate<ACLMessage> taker) {
            byReplyWith.put(replyWith, new Late(taker, System.nanoTime() + lateForNanos));
        }

        synchronized boolean isEmpty() {
            return byReplyWith.isEmpty();
        }

        synchronized boolean offer(String inReplyTo, ACLMessage message) {
            Late late = byReplyWith.get(inReplyTo);
            if (late == null) {
                return false;
            }
            if (System.nanoTime() - late.untilNanos() > 0) {
                byReplyWith.remove(inReplyTo);
                return false;
            }
            return late.taker().test(message);
        }
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
