package org.siebog.perf.senderreceiver.pekko;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.OneForOneStrategy;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.SupervisorStrategy;
import org.apache.pekko.japi.pf.DeciderBuilder;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.examples.senderreceiver.RunTally;
import org.siebog.perf.senderreceiver.RunParameters;

/**
 * Siebog's {@code SenderReceiverRun} as a Pekko actor: starts the Senders, says "measure" once every
 * pair has warmed up and "stop" once every pair has measured (see {@link RunTally}), and completes the
 * run's result. A Sender that fails fails the run.
 */
final class PekkoRun extends AbstractActor {

    /** Between the coordinator and its Senders (in one actor system: never serialized). */
    enum Word { START, MEASURE, STOP, WARMED_UP }

    /** A Sender's measured round trips. */
    record Measured(long count, long rttNanos, long windowStartNanos, long windowNanos) {
    }

    private final RunParameters parameters;
    private final List<ActorRef> receivers;
    private final CompletableFuture<RunResult> outcome;
    private final RunTally tally;
    private final List<ActorRef> senders = new ArrayList<>();

    private PekkoRun(RunParameters parameters, List<ActorRef> receivers, CompletableFuture<RunResult> outcome) {
        this.parameters = parameters;
        this.receivers = receivers;
        this.outcome = outcome;
        this.tally = new RunTally(parameters.pairs());
    }

    /** Runs the method in {@code system} against {@code receivers}, one per pair, and waits for its result; {@code run} names it. */
    static RunResult run(ActorSystem system, int run, RunParameters parameters, List<ActorRef> receivers) throws Exception {
        CompletableFuture<RunResult> outcome = new CompletableFuture<>();
        ActorRef coordinator = system.actorOf(Props.create(PekkoRun.class, () -> new PekkoRun(parameters, receivers, outcome)),
                "sender-receiver-run-" + run);
        try {
            return outcome.get();
        } finally {
            system.stop(coordinator); // and its Senders with it
        }
    }

    @Override
    public void preStart() {
        for (int i = 0; i < parameters.pairs(); i++) {
            senders.add(getContext().actorOf(PekkoSender.props(receivers.get(i), getSelf(), parameters), "sender-" + i));
        }
        tellSenders(Word.START);
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
        return new OneForOneStrategy(DeciderBuilder.matchAny(failure -> {
            outcome.completeExceptionally(failure);
            return SupervisorStrategy.stop();
        }).build());
    }

    @Override
    public Receive createReceive() {
        return receiveBuilder()
                .matchEquals(Word.WARMED_UP, word -> {
                    if (tally.warmedUp()) {
                        tellSenders(Word.MEASURE);
                    }
                })
                .match(Measured.class, measured -> {
                    if (tally.measured(measured.count(), measured.rttNanos(), measured.windowStartNanos(), measured.windowNanos())) {
                        tellSenders(Word.STOP);
                        outcome.complete(tally.result());
                    }
                })
                .build();
    }

    private void tellSenders(Word word) {
        senders.forEach(sender -> sender.tell(word, getSelf()));
    }
}
