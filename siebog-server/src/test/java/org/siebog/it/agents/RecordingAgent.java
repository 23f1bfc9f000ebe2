package org.siebog.it.agents;

import java.util.Map;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;

/**
 * What every test agent does: records each message it handles in {@link AgentRecords} (in order),
 * tracks how many of its handlers run at once, and answers:
 * <ul>
 * <li>a REQUEST with a sender → an INFORM echoing the content;</li>
 * <li>a QUERY_REF with a sender → an INFORM whose content is the contents recorded so far, joined by ','.</li>
 * </ul>
 * Start arguments: {@code workMicros} (busy-work per message, to widen races), {@code gate=closed}
 * (hold every handler until the test opens the gate, see {@link AgentRecords#openGate(String)}).
 * All of it lives in {@link AgentRecords}, not in fields, so stateless subclasses behave the same.
 */
public abstract class RecordingAgent extends AbstractAgent {

    @Inject
    AgentRecords records;

    @Override
    protected void onStart(Map<String, String> args) {
        records.started(aid().name(), args);
    }

    @Override
    protected void onMessage(ACLMessage message) {
        String name = aid().name();
        records.enter(name);
        try {
            records.record(name, message);
            records.passGate(name);
            busyWork(Long.parseLong(records.of(name).args().getOrDefault("workMicros", "0")));
            answer(message);
        } finally {
            records.exit(name);
        }
    }

    @Override
    protected void onStop() {
        records.event(aid().name(), "stopped");
    }

    protected void answer(ACLMessage message) {
        if (message.sender() == null) {
            return;
        }
        if (message.performative() == Performative.REQUEST) {
            send(reply(message, Performative.INFORM).content(message.content()));
        } else if (message.performative() == Performative.QUERY_REF) {
            String seen = records.of(aid().name()).messages().stream()
                    .filter(e -> !e.performative().equals(Performative.QUERY_REF.name()))
                    .map(AgentRecords.Entry::content)
                    .collect(Collectors.joining(","));
            send(reply(message, Performative.INFORM).content(seen));
        }
    }

    private static void busyWork(long micros) {
        long until = System.nanoTime() + micros * 1_000;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
