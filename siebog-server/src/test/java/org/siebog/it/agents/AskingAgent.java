package org.siebog.it.agents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.NoReplyException;
import org.siebog.api.Performative;
import org.siebog.api.SiebogException;

/**
 * A {@link RecordingAgent} that asks on command and records how each question ended, as events:
 * <ul>
 * <li>REQUEST {@code "ask RECEIVER TIMEOUT_MS COUNT PERFORMATIVE"} asks RECEIVER (an AID) COUNT
 * questions of that performative, content {@code "question i"}; each ends as an event
 * {@code "answered <content> <inReplyTo == replyWith>"}, {@code "failed <status> <exception>"} (the
 * stage's failure) or {@code "refused <status> <exception>"} (thrown by {@code ask} at once), and the
 * answers' contents are kept in a field;</li>
 * <li>QUERY_REF → INFORM (to its replyTo or sender) with that field's answers joined by ',' (for a stateful
 * asker, state that a stage's action changed).</li>
 * </ul>
 */
public abstract class AskingAgent extends RecordingAgent {

    private final List<String> answers = new ArrayList<>();

    @Override
    protected void answer(ACLMessage message) {
        String content = message.content() == null ? "" : message.content();
        if (message.performative() == Performative.REQUEST && content.startsWith("ask ")) {
            String[] words = content.split(" ");
            askMany(AID.parse(words[1]), Duration.ofMillis(Long.parseLong(words[2])), Integer.parseInt(words[3]),
                    Performative.valueOf(words[4]));
        } else if (message.performative() == Performative.QUERY_REF) {
            send(reply(message, Performative.INFORM).content(String.join(",", answers)));
        } else {
            super.answer(message);
        }
    }

    private void askMany(AID receiver, Duration timeout, int count, Performative performative) {
        String name = aid().name();
        for (int i = 0; i < count; i++) {
            try {
                ask(ACLMessage.builder(performative).receiver(receiver).content("question " + i), timeout)
                        .thenAccept(answer -> {
                            answers.add(answer.content());
                            records.event(name, "answered " + answer.content() + " " + (answer.inReplyTo() != null));
                        })
                        .exceptionally(failure -> {
                            Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                            int status = cause instanceof SiebogException refusal ? refusal.status() : 500;
                            records.event(name, "failed " + status + " " + cause.getClass().getSimpleName()
                                    + (cause instanceof NoReplyException ? "" : ": " + cause.getMessage()));
                            return null;
                        });
            } catch (SiebogException refused) {
                records.event(name, "refused " + refused.status() + " " + refused.getClass().getSimpleName());
            }
        }
    }
}
