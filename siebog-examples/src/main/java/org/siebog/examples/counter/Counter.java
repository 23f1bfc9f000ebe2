package org.siebog.examples.counter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.SiebogException;
import org.siebog.api.StatefulAgent;

/**
 * Counts numbered messages and notices any that are lost, repeated or out of order: each INFORM
 * carries a sequence number (its content, 1, 2, 3, ...) within its conversation. Ask it with a
 * QUERY_REF; it answers {@code handled=N highest=H gaps=G repeats=R outOfOrder=O}, and where the first
 * gaps and repeats were ({@code firstGaps=conversation:from-to,...}, {@code firstRepeats=conversation:n,...})
 * when there are any. The cluster tests and the failover benchmark use it to prove that no message was
 * lost or handled twice. A REQUEST
 * {@code move-to <node>} moves it there ({@link #moveTo(String)}): it agrees, then handles its next
 * message on that node; a node it cannot go to is refused with the reason.
 */
@Stateful
public class Counter extends AbstractAgent implements StatefulAgent {

    private final Map<String, Long> lastSeen = new HashMap<>();
    private long handled;
    private long gaps;
    private long repeats;
    private long outOfOrder;
    /** Where the first gaps were ({@value #GAPS_KEPT} at most), {@code conversation:from-to}: what a test that finds one looks up. */
    private final List<String> firstGaps = new ArrayList<>();
    /** Which numbers came twice first ({@value #GAPS_KEPT} at most), {@code conversation:n}. */
    private final List<String> firstRepeats = new ArrayList<>();
    private static final int GAPS_KEPT = 10;

    @Override
    protected void onMessage(ACLMessage message) {
        switch (message.performative()) {
            case INFORM -> count(message);
            case QUERY_REF -> send(reply(message, Performative.INFORM).content(report()));
            case REQUEST -> moveOnRequest(message);
            case FAILURE -> { } // a report that could not be delivered (its asker gave up): nothing to answer
            default -> send(reply(message, Performative.NOT_UNDERSTOOD)
                    .content("send INFORMs numbered 1, 2, 3..., a QUERY_REF, or a REQUEST 'move-to <node>'"));
        }
    }

    private void moveOnRequest(ACLMessage message) {
        String[] words = String.valueOf(message.content()).trim().split("\\s+");
        if (words.length != 2 || !words[0].equals("move-to")) {
            answer(message, Performative.NOT_UNDERSTOOD, "the request is 'move-to <node>'");
            return;
        }
        try {
            moveTo(words[1]);
            answer(message, Performative.AGREE, "moving to " + words[1]);
        } catch (SiebogException refused) {
            answer(message, Performative.REFUSE, refused.getMessage());
        }
    }

    /** Answers a request that names someone to answer (a REST post without a sender names no one). */
    private void answer(ACLMessage request, Performative performative, String content) {
        if (request.sender() != null || request.replyTo() != null) {
            send(reply(request, performative).content(content));
        }
    }

    private void count(ACLMessage message) {
        handled++;
        long seq = Long.parseLong(message.content().trim());
        String stream = String.valueOf(message.conversationId());
        long last = lastSeen.getOrDefault(stream, 0L);
        if (seq == last + 1) {
            lastSeen.put(stream, seq);
        } else if (seq > last + 1) {
            gaps += seq - last - 1;
            if (firstGaps.size() < GAPS_KEPT) {
                firstGaps.add(stream + ":" + (last + 1) + "-" + (seq - 1));
            }
            lastSeen.put(stream, seq);
        } else if (seq == last) {
            repeats++;
            if (firstRepeats.size() < GAPS_KEPT) {
                firstRepeats.add(stream + ":" + seq);
            }
        } else {
            outOfOrder++;
        }
    }

    private String report() {
        long highest = lastSeen.values().stream().mapToLong(Long::longValue).sum();
        return "handled=" + handled + " highest=" + highest + " gaps=" + gaps + " repeats=" + repeats + " outOfOrder=" + outOfOrder
                + (firstGaps.isEmpty() ? "" : " firstGaps=" + String.join(",", firstGaps))
                + (firstRepeats.isEmpty() ? "" : " firstRepeats=" + String.join(",", firstRepeats));
    }
}
