package org.siebog.perf.senderreceiver.pekko;

import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.Props;

import org.siebog.examples.senderreceiver.Primes;

/** Siebog's {@code Receiver} as a Pekko actor: answers each request with the same content, after counting the primes up to the run's limit. */
final class PekkoReceiver extends AbstractActor {

    private final int primeLimit;
    /** Kept, so that the count is not optimised away. */
    private int primes;

    private PekkoReceiver(int primeLimit) {
        this.primeLimit = primeLimit;
    }

    static Props props(int primeLimit) {
        return Props.create(PekkoReceiver.class, () -> new PekkoReceiver(primeLimit));
    }

    @Override
    public Receive createReceive() {
        return receiveBuilder().match(String.class, request -> {
            if (primeLimit > 0) {
                primes = Primes.countUpTo(primeLimit);
            }
            getSender().tell(request, getSelf());
        }).build();
    }
}
