package org.siebog.perf.senderreceiver.jade;

import static org.siebog.examples.senderreceiver.SenderReceiverProtocol.*;

import java.util.ArrayList;
import java.util.List;

import jade.core.AID;
import jade.core.Agent;
import jade.lang.acl.ACLMessage;
import jade.wrapper.AgentController;
import jade.wrapper.ControllerException;

import org.siebog.examples.senderreceiver.RunTally;
import org.siebog.perf.senderreceiver.RunParameters;
import org.siebog.perf.senderreceiver.child.ChildArgs;

/**
 * Siebog's {@code SenderReceiverRun} on JADE: starts the Senders (and, on one node, the Receivers)
 * in its container, says "measure" once every pair has warmed up and "stop" once every pair has
 * measured (see {@link RunTally}), then hands the result to the {@link RunOutcome}. Arguments: the
 * {@link RunOutcome}, the {@link RunParameters}, {@link Receivers}, and which run of its JVM this is
 * (its agents' names say so: a JVM runs the method several times, warming up).
 */
public class JadeRun extends Agent {

    /** Where the Receivers are. */
    public enum Receivers {
        /** Started here, beside their Senders. */
        HERE,
        /** Already running in another container ({@link JadeReceiverContainer}), named by {@link ChildArgs#receiverName}. */
        ELSEWHERE
    }

    private RunOutcome outcome;
    private RunParameters parameters;
    private Receivers receivers;
    private int run;
    private RunTally tally;
    private final List<AID> senders = new ArrayList<>();

    @Override
    protected void setup() {
        outcome = (RunOutcome) getArguments()[0];
        parameters = (RunParameters) getArguments()[1];
        receivers = (Receivers) getArguments()[2];
        run = (Integer) getArguments()[3];
        tally = new RunTally(parameters.pairs());
        addBehaviour(new MessageBehaviour(this, outcome, this::onMessage));
        // As in Siebog: the pairs are started from the behaviour, not from setup().
        ACLMessage start = new ACLMessage(ACLMessage.REQUEST);
        start.addReceiver(getAID());
        start.setProtocol(NAME);
        start.setContent(START);
        send(start);
    }

    private void onMessage(ACLMessage message) {
        if (!NAME.equals(message.getProtocol())) {
            return;
        }
        switch (message.getContent()) {
            case START -> startPairs();
            case WARMED_UP -> {
                if (tally.warmedUp()) {
                    tellSenders(MEASURE);
                }
            }
            case MEASURED -> {
                if (tally.measured(number(message, COUNT), number(message, RTT_NANOS), number(message, WINDOW_START_NANOS),
                        number(message, WINDOW_NANOS))) {
                    tellSenders(STOP);
                    outcome.finished(tally.result());
                }
            }
            default -> { }
        }
    }

    private void startPairs() {
        try {
            for (int i = 0; i < parameters.pairs(); i++) {
                AID receiver = receivers == Receivers.HERE
                        ? startAgent(ChildArgs.receiverName(run, i), JadeReceiver.class, outcome)
                        : new AID(ChildArgs.receiverName(run, i) + "@" + getHap(), AID.ISGUID);
                senders.add(startAgent("sender-" + run + "-" + i, JadeSender.class, outcome, receiver, getAID(), parameters));
            }
        } catch (ControllerException e) {
            outcome.failed(new IllegalStateException("could not start pair " + senders.size() + ": " + e.getMessage(), e));
            return;
        }
        tellSenders(START);
    }

    private AID startAgent(String name, Class<? extends Agent> type, Object... args) throws ControllerException {
        AgentController agent = getContainerController().createNewAgent(name, type.getName(), args);
        agent.start();
        return new AID(agent.getName(), AID.ISGUID);
    }

    private void tellSenders(String word) {
        ACLMessage message = new ACLMessage(ACLMessage.REQUEST);
        senders.forEach(message::addReceiver);
        message.setProtocol(NAME);
        message.setContent(word);
        send(message);
    }

    private static long number(ACLMessage message, String parameter) {
        return Long.parseLong(message.getUserDefinedParameter(parameter));
    }
}
