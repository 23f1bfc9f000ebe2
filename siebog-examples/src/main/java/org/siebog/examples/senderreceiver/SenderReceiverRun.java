package org.siebog.examples.senderreceiver;

import static org.siebog.examples.senderreceiver.SenderReceiverProtocol.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateful;
import jakarta.inject.Inject;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.AgentManager;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * Coordinates one Sender/Receiver run: starts {@code pairs} Receivers and Senders, says "measure"
 * once every pair has warmed up and "stop" once every pair has measured (see {@link RunTally}),
 * publishes the result to {@link SenderReceiverRuns}, then stops the pairs and itself.
 * Arguments: {@code pairs}, {@code payloadChars}, {@code primeLimit}, {@code warmup}, {@code measured}.
 */
@Stateful
public class SenderReceiverRun extends AbstractAgent implements StatefulAgent {

    @EJB(lookup = AgentManager.JNDI_NAME)
    private AgentManager agents;

    @Inject
    private SenderReceiverRuns runs;

    private Map<String, String> args;
    private RunTally tally;
    private final List<AID> senders = new ArrayList<>();
    private final List<AID> started = new ArrayList<>();

    @Override
    protected void onStart(Map<String, String> args) {
        this.args = args;
        tally = new RunTally(Integer.parseInt(args.get("pairs")));
        // Starting thousands of agents takes a while: do it from the mailbox, not the caller's thread.
        send(ACLMessage.builder(Performative.REQUEST).receiver(aid()).protocol(NAME).content(START));
    }

    @Override
    protected void onMessage(ACLMessage message) {
        if (!NAME.equals(message.protocol())) {
            return;
        }
        switch (message.content()) {
            case START -> startPairs();
            case WARMED_UP -> {
                if (tally.warmedUp()) {
                    tellSenders(MEASURE);
                }
            }
            case MEASURED -> {
                if (tally.measured(number(message, COUNT), number(message, RTT_NANOS), number(message, WINDOW_START_NANOS),
                        number(message, WINDOW_NANOS))) {
                    runs.finished(aid().name(), tally.result());
                    tellSenders(STOP);
                    stopAll();
                }
            }
            default -> { }
        }
    }

    private void startPairs() {
        int pairs = Integer.parseInt(args.get("pairs"));
        String run = aid().name();
        try {
            for (int i = 0; i < pairs; i++) {
                AID receiver = agents.start("Receiver", run + "-receiver-" + i, Map.of(), args.get("receiverNode")).aid();
                started.add(receiver);
                AID sender = agents.start("Sender", run + "-sender-" + i, Map.of(
                        "receiver", receiver.toString(),
                        "coordinator", aid().toString(),
                        "payloadChars", args.getOrDefault("payloadChars", "7"),
                        "primeLimit", args.getOrDefault("primeLimit", "0"),
                        "warmup", args.getOrDefault("warmup", "100"),
                        "measured", args.getOrDefault("measured", "100")), args.get("senderNode")).aid();
                started.add(sender);
                senders.add(sender);
            }
        } catch (RuntimeException e) {
            runs.failed(run, "could not start pair " + senders.size() + ": " + e.getMessage());
            stopAll();
            return;
        }
        tellSenders(START);
    }

    private void tellSenders(String word) {
        send(ACLMessage.builder(Performative.REQUEST).receivers(senders).protocol(NAME).content(word));
    }

    private void stopAll() {
        started.forEach(agents::stop);
        agents.stop(aid());
    }

    private static long number(ACLMessage message, String property) {
        return Long.parseLong(message.userProperty(property));
    }
}
