package org.siebog.perf.senderreceiver.jade;

import static org.siebog.examples.senderreceiver.SenderReceiverProtocol.*;

import jade.core.AID;
import jade.core.Agent;
import jade.lang.acl.ACLMessage;

import org.siebog.examples.senderreceiver.RoundTripMeter;
import org.siebog.perf.senderreceiver.RunParameters;

/**
 * Siebog's {@code Sender} on JADE: sends its Receiver a REQUEST, waits for the INFORM, sends the
 * next, timing the round trips the way {@link RoundTripMeter} says and telling the coordinator
 * ({@link JadeRun}) its milestones. Arguments: the {@link RunOutcome}, the receiver's and the
 * coordinator's AIDs, the {@link RunParameters}.
 */
public class JadeSender extends Agent {

    private RunOutcome outcome;
    private AID receiver;
    private AID coordinator;
    private ACLMessage request;
    private RoundTripMeter meter;

    @Override
    protected void setup() {
        Object[] args = getArguments();
        outcome = (RunOutcome) args[0];
        receiver = (AID) args[1];
        coordinator = (AID) args[2];
        RunParameters parameters = (RunParameters) args[3];
        // JADE clones a message on send, so one request instance serves every round trip, as in Siebog.
        request = new ACLMessage(ACLMessage.REQUEST);
        request.addReceiver(receiver);
        request.setContent(parameters.randomPayload());
        if (parameters.primeLimit() > 0) {
            request.addUserDefinedParameter(JadeReceiver.PRIME_LIMIT, Integer.toString(parameters.primeLimit()));
        }
        meter = new RoundTripMeter(parameters.warmup(), parameters.measured());
        addBehaviour(new MessageBehaviour(this, outcome, this::onMessage));
    }

    private void onMessage(ACLMessage message) {
        if (NAME.equals(message.getProtocol()) && coordinator.equals(message.getSender())) {
            switch (message.getContent()) {
                case START -> request();
                case MEASURE -> meter.measure();
                case STOP -> meter.stop();
                default -> throw new IllegalArgumentException("unknown control word " + message.getContent());
            }
        } else if (message.getPerformative() == ACLMessage.INFORM && receiver.equals(message.getSender())) {
            switch (meter.replied(System.nanoTime())) {
                case WARMED_UP -> send(control(WARMED_UP));
                case MEASURED -> {
                    ACLMessage report = control(MEASURED);
                    report.addUserDefinedParameter(COUNT, Long.toString(meter.measuredCount()));
                    report.addUserDefinedParameter(RTT_NANOS, Long.toString(meter.measuredRttNanos()));
                    report.addUserDefinedParameter(WINDOW_START_NANOS, Long.toString(meter.windowStartNanos()));
                    report.addUserDefinedParameter(WINDOW_NANOS, Long.toString(meter.windowNanos()));
                    send(report);
                }
                case NONE -> { }
            }
            if (!meter.stopped()) {
                request();
            }
        } else if (message.getPerformative() == ACLMessage.FAILURE && !meter.stopped()) {
            // The AMS says a message could not be delivered (e.g. the Receivers' container is gone):
            // no reply will come, so the run would only hang.
            outcome.failed(new IllegalStateException(getLocalName() + " got a FAILURE from " + message.getSender().getName()
                    + ": " + message.getContent()));
        }
    }

    private void request() {
        meter.sent(System.nanoTime());
        send(request);
    }

    private ACLMessage control(String word) {
        ACLMessage message = new ACLMessage(ACLMessage.INFORM);
        message.addReceiver(coordinator);
        message.setProtocol(NAME);
        message.setContent(word);
        return message;
    }
}
