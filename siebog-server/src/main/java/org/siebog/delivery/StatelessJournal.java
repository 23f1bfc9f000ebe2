package org.siebog.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.siebog.api.ACLMessage;
import org.siebog.api.RemoteNodeException;
import org.siebog.message.MessageId;

/**
 * What keeps a stateless agent's messages (a pinned agent's, or this node's instance of a balanced
 * one) from dying with its node: not a log, but its senders. A stateful agent's message is
 * acknowledged once the inbox log holds it; a stateless agent has no state to replay it against,
 * so its message is acknowledged only once the agent has <em>handled</em> it and every message it
 * sent meanwhile has been admitted by its receiver. Until then the sender holds it, as it holds any
 * unacknowledged message: a REST client has no answer yet, and another node's link sends it again to
 * wherever the agent is once this node has left ({@code RemoteNodes.redirect}): the pinned agent
 * re-pinned on a survivor, a balanced one's instance there. Logging stateless messages as stateful
 * ones are, and posting again what a dead node had logged past its handled marks, did the same at a
 * cache write per batch and a mark per agent: Sender/Receiver between two nodes (1,000 stateless
 * Receivers) kept 0.46 of its round trips that way and 0.74 this way in one round each (the delayed
 * posts' cache writes in both), where this costs one future per message (perf/HISTORY.md, 2026-11-29).
 *
 * <p>So a stateless agent's message is handled <em>at least</em> once: one the dead node handled
 * before its acknowledgement reached the sender is handled again. A stateless agent keeps no window
 * of identities to drop a repeat by; a handler that must not run twice belongs to a stateful agent.
 */
public final class StatelessJournal implements Journal {

    /** An admitted message's position and its sender's acknowledgement. */
    private record Unsettled(long seq, CompletableFuture<Void> acknowledged) {
    }

    private long nextSeq;
    /** Admitted and not yet acknowledged, in position order (under this journal's lock); at most the mailbox's capacity. */
    private final ArrayDeque<Unsettled> unsettled = new ArrayDeque<>();
    /** What the agent sent since its last run ended (called from its handler, on its lane). */
    private List<CompletableFuture<Void>> outputs = new ArrayList<>();
    /** Done once every output of the runs handled so far is settled (only the lane replaces it). */
    private CompletableFuture<Void> outputsBefore = CompletableFuture.completedFuture(null);

    @Override
    public synchronized CompletableFuture<Void> admit(MessageId id, ACLMessage message, Consumer<Envelope> mailbox) {
        long seq = ++nextSeq;
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        unsettled.add(new Unsettled(seq, acknowledged));
        mailbox.accept(new Envelope(id, seq, message));
        return acknowledged;
    }

    @Override
    public synchronized void sent(CompletableFuture<Void> admitted) {
        outputs.add(admitted);
    }

    /**
     * Acknowledges the messages up to {@code seq} once what the agent sent while handling them is
     * admitted (or refused: its sender was told): were the node to die with an output still on its way,
     * the message that made the agent send it must be sent again. Acknowledgements follow one another:
     * each waits for the outputs of the runs before it too.
     */
    @Override
    public void handledUpTo(long seq, boolean now) {
        List<CompletableFuture<Void>> sentMeanwhile;
        synchronized (this) {
            sentMeanwhile = outputs;
            outputs = new ArrayList<>();
        }
        if (sentMeanwhile.isEmpty() && outputsBefore.isDone()) {
            acknowledge(seq);
            return;
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(sentMeanwhile.toArray(CompletableFuture[]::new)).handle((ok, refused) -> null);
        outputsBefore = CompletableFuture.allOf(outputsBefore, all);
        outputsBefore.thenRun(() -> acknowledge(seq));
    }

    private void acknowledge(long upTo) {
        List<CompletableFuture<Void>> settled = new ArrayList<>();
        synchronized (this) {
            while (!unsettled.isEmpty() && unsettled.peek().seq() <= upTo) {
                settled.add(unsettled.poll().acknowledged());
            }
        }
        settled.forEach(acknowledged -> acknowledged.complete(null));
    }

    /**
     * The mailbox was dropped with messages in it (its node rejoins the cluster empty): their senders
     * are told to send them again (503), to wherever the agent is then.
     */
    @Override
    public void dropped(String why) {
        List<CompletableFuture<Void>> dropped = new ArrayList<>();
        synchronized (this) {
            unsettled.forEach(u -> dropped.add(u.acknowledged()));
            unsettled.clear();
        }
        RemoteNodeException refusal = new RemoteNodeException(why + "; send it again");
        dropped.forEach(acknowledged -> acknowledged.completeExceptionally(refusal));
    }
}
