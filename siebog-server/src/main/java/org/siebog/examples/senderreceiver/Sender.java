package org.siebog.examples.senderreceiver;

import static org.siebog.examples.senderreceiver.SenderReceiverProtocol.*;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.ejb.Stateful;

import org.siebog.agent.AID;
import org.siebog.agent.AbstractAgent;
import org.siebog.agent.StatefulAgent;
import org.siebog.message.ACLMessage;
import org.siebog.message.Performative;

/**
 * Sends its Receiver a REQUEST, waits for the INFORM, and sends the next, timing the round trips
 * the way {@link RoundTripMeter} says. Arguments: {@code receiver}, {@code coordinator} (AIDs),
 * {@code payloadChars}, {@code primeLimit}, {@code warmup}, {@code measured}.
 */
@Stateful
public class Sender extends AbstractAgent implements StatefulAgent {

    private AID receiver;
    private AID coordinator;
    private ACLMessage request;
    private RoundTripMeter meter;

    @Override
    protected void onStart(Map<String, String> args) {
        receiver = AID.parse(args.get("receiver"));
        coordinator = AID.parse(args.get("coordinator"));
        int primeLimit = Integer.parseInt(args.getOrDefault("primeLimit", "0"));
        // Messages are immutable: the same request instance goes out on every round trip.
        ACLMessage.Builder request = ACLMessage.builder(Performative.REQUEST).sender(aid()).receiver(receiver)
                .content(randomText(Integer.parseInt(args.getOrDefault("payloadChars", "7"))));
        if (primeLimit > 0) {
            request.userProperty(Receiver.PRIME_LIMIT, Integer.toString(primeLimit));
        }
        this.request = request.build();
        meter = new RoundTripMeter(Integer.parseInt(args.getOrDefault("warmup", "100")),
                Integer.parseInt(args.getOrDefault("measured", "100")));
    }

    @Override
    protected void onMessage(ACLMessage message) {
        if (NAME.equals(message.protocol()) && coordinator.equals(message.sender())) {
            switch (message.content()) {
                case START -> request();
                case MEASURE -> meter.measure();
                case STOP -> meter.stop();
                default -> throw new IllegalArgumentException("unknown control word " + message.content());
            }
        } else if (message.performative() == Performative.INFORM && receiver.equals(message.sender())) {
            switch (meter.replied(System.nanoTime())) {
                case WARMED_UP -> tellCoordinator(WARMED_UP);
                case MEASURED -> send(ACLMessage.builder(Performative.INFORM).receiver(coordinator).protocol(NAME)
                        .content(MEASURED)
                        .userProperty(COUNT, Long.toString(meter.measuredCount()))
                        .userProperty(RTT_NANOS, Long.toString(meter.measuredRttNanos()))
                        .userProperty(WINDOW_NANOS, Long.toString(meter.windowNanos())));
                case NONE -> { }
            }
            if (!meter.stopped()) {
                request();
            }
        }
    }

    private void request() {
        meter.sent(System.nanoTime());
        send(request);
    }

    private void tellCoordinator(String word) {
        send(ACLMessage.builder(Performative.INFORM).receiver(coordinator).protocol(NAME).content(word));
    }

    private static String randomText(int length) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }
}
