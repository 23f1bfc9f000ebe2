package org.siebog.perf.senderreceiver.pekko;

import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Props;

import org.siebog.examples.senderreceiver.RoundTripMeter;
import org.siebog.perf.senderreceiver.RunParameters;

/**
 * Siebog's {@code Sender} as a Pekko actor: sends its Receiver a request, waits for the reply, sends
 * the next, timing the round trips the way {@link RoundTripMeter} says and telling the coordinator
 * ({@link PekkoRun}) its milestones.
 */
final class PekkoSender extends AbstractActor {

    private final ActorRef receiver;
    private final ActorRef coordinator;
    private final String request;
    private final RoundTripMeter meter;

    private PekkoSender(ActorRef receiver, ActorRef coordinator, RunParameters parameters) {
        this.receiver = receiver;
        this.coordinator = coordinator;
        this.request = parameters.randomPayload();
        this.meter = new RoundTripMeter(parameters.warmup(), parameters.measured());
    }

    static Props props(ActorRef receiver, ActorRef coordinator, RunParameters parameters) {
        return Props.create(PekkoSender.class, () -> new PekkoSender(receiver, coordinator, parameters));
    }

    @Override
    public Receive createReceive() {
        return receiveBuilder()
                .matchEquals(PekkoRun.Word.START, word -> request())
                .matchEquals(PekkoRun.Word.MEASURE, word -> meter.measure())
                .matchEquals(PekkoRun.Word.STOP, word -> meter.stop())
                .match(String.class, reply -> replied())
                .build();
    }

    private void replied() {
        switch (meter.replied(System.nanoTime())) {
            case WARMED_UP -> coordinator.tell(PekkoRun.Word.WARMED_UP, getSelf());
            case MEASURED -> coordinator.tell(new PekkoRun.Measured(meter.measuredCount(), meter.measuredRttNanos(), meter.windowStartNanos(),
                    meter.windowNanos()), getSelf());
            case NONE -> { }
        }
        if (!meter.stopped()) {
            request();
        }
    }

    private void request() {
        meter.sent(System.nanoTime());
        receiver.tell(request, getSelf());
    }
}
