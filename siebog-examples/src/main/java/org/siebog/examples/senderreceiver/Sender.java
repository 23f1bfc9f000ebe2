package org.siebog.examples.senderreceiver;

import static org.siebog.examples.senderreceiver.SenderReceiverProtocol.*;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * Sends its Receiver a REQUEST, waits for the INFORM, and sends the next, timing the round trips
 * the way {@link RoundTripMeter} says. Arguments: {@code receiver}, {@code coordinator} (AIDs),
 * {@code payloadChars}, {@code primeLimit}, {@code warmup}, {@code measured}.
 */
@Stateful
public class Sender extends AbstractAgent implements StatefulAgent {

    private AID receiver;
    private AID coordinator;
    private int payloadChars;
    private int primeLimit;
    /**
     * Not part of the saved state: with 64 KB payloads they made every save of a Sender 130 KB, and
     * a busy node's saves (and so the release of its inbox log) lagged. After a failover they are
     * made again: any text of that length will do, and the request from its generation.
     */
    private transient String payload;
    private transient ACLMessage request;
    /**
     * The request's {@code replyWith}: a new one each time a request is asked again, so that a late
     * answer to the copy asked before is told apart. One request with the current generation is
     * unanswered at a time (the next goes out when it is answered, and each message is delivered
     * once), so the requests in between share it, and the instance: a round trip builds no message.
     */
    private long generation;
    private long requestSentNanos;
    private RoundTripMeter meter;
    private long refusals;

    private static final Logger LOG = Logger.getLogger(Sender.class.getName());
    /** A refused request is asked again after this. */
    private static final Duration RETRY_AFTER = Duration.ofMillis(20);
    /** How often a Sender looks for a round trip that went missing. */
    private static final Duration CHECK_EVERY = Duration.ofSeconds(1);
    /** A request unanswered this long is asked again: its answer was refused, and only the Receiver was told. */
    private static final long ANSWER_WITHIN_NANOS = Duration.ofSeconds(3).toNanos();
    private static final String CHECK = "check";

    @Override
    protected void onStart(Map<String, String> args) {
        receiver = AID.parse(args.get("receiver"));
        coordinator = AID.parse(args.get("coordinator"));
        primeLimit = Integer.parseInt(args.getOrDefault("primeLimit", "0"));
        payloadChars = Integer.parseInt(args.getOrDefault("payloadChars", "7"));
        meter = new RoundTripMeter(Integer.parseInt(args.getOrDefault("warmup", "100")),
                Integer.parseInt(args.getOrDefault("measured", "100")));
    }

    @Override
    protected void onMessage(ACLMessage message) {
        if (NAME.equals(message.protocol()) && aid().equals(message.sender()) && CHECK.equals(message.content())) {
            askAgainIfUnanswered();
        } else if (NAME.equals(message.protocol()) && coordinator.equals(message.sender())) {
            switch (message.content()) {
                case START -> {
                    request();
                    sendLater(check(), CHECK_EVERY);
                }
                case MEASURE -> meter.measure();
                case STOP -> meter.stop();
                default -> throw new IllegalArgumentException("unknown control word " + message.content());
            }
        } else if (message.performative() == Performative.INFORM && receiver.equals(message.sender())
                && currentRequest().replyWith().equals(message.inReplyTo())) {
            switch (meter.replied(System.nanoTime())) {
                case WARMED_UP -> tellCoordinator(WARMED_UP);
                case MEASURED -> send(ACLMessage.builder(Performative.INFORM).receiver(coordinator).protocol(NAME)
                        .content(MEASURED)
                        .userProperty(COUNT, Long.toString(meter.measuredCount()))
                        .userProperty(RTT_NANOS, Long.toString(meter.measuredRttNanos()))
                        .userProperty(WINDOW_START_NANOS, Long.toString(meter.windowStartNanos()))
                        .userProperty(WINDOW_NANOS, Long.toString(meter.windowNanos())));
                case NONE -> { }
            }
            if (!meter.stopped()) {
                request();
            }
        } else if (message.performative() == Performative.FAILURE && !meter.stopped()) {
            // A node refused a message (503: it holds as much as it may, and sheds load rather than
            // run out of memory). The current request is asked again shortly (the round trip takes
            // longer); a refused check is simply scheduled again.
            if (message.inReplyTo() == null) {
                sendLater(check(), CHECK_EVERY);
                return;
            }
            if (!currentRequest().replyWith().equals(message.inReplyTo())) {
                return;
            }
            if (refusals++ == 0) {
                LOG.info(() -> aid() + ": a request was refused (" + message.content() + "); asking again after "
                        + RETRY_AFTER.toMillis() + " ms until admitted");
            }
            sendLater(currentRequest(), RETRY_AFTER);
        }
    }

    private void request() {
        requestSentNanos = System.nanoTime();
        meter.sent(requestSentNanos);
        send(currentRequest());
    }

    /**
     * Backpressure: a node that holds as much as it may refuses messages (503). A refused request
     * comes back to this Sender as a FAILURE and is asked again; a refused answer goes back to the
     * Receiver, so a request unanswered for long is asked again too (a late answer to it is then
     * ignored by its replyWith). Either way the round trip counts from the first request.
     */
    private void askAgainIfUnanswered() {
        if (meter.stopped()) {
            return;
        }
        if (System.nanoTime() - requestSentNanos > ANSWER_WITHIN_NANOS) {
            ++generation;
            request = null; // made anew with this generation
            requestSentNanos = System.nanoTime();
            send(currentRequest());
        }
        sendLater(check(), CHECK_EVERY);
    }

    /** The request of this {@code generation}, as sent (or, after a failover, made again); it names this agent as its sender. */
    private ACLMessage currentRequest() {
        if (request == null) {
            if (payload == null) {
                payload = randomText(payloadChars);
            }
            ACLMessage.Builder next = ACLMessage.builder(Performative.REQUEST).sender(aid()).receiver(receiver).content(payload)
                    .replyWith(Long.toString(generation));
            if (primeLimit > 0) {
                next.userProperty(Receiver.PRIME_LIMIT, Integer.toString(primeLimit));
            }
            request = next.build();
        }
        return request;
    }

    private ACLMessage check() {
        return ACLMessage.builder(Performative.INFORM).receiver(aid()).protocol(NAME).content(CHECK).build();
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
