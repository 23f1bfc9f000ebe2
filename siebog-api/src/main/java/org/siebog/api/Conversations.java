package org.siebog.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** What the interaction protocols ({@link FipaRequest}, {@link ContractNet}, {@link Ballot}) share. */
final class Conversations {

    private Conversations() {
    }

    /**
     * {@code message} as the first of a protocol's conversation: with {@code protocol}, a fresh
     * {@code conversationId} unless it names one, and {@code replyBy} unless that is null.
     */
    static ACLMessage start(ACLMessage message, String protocol, Instant replyBy) {
        return new ACLMessage(message.performative(), message.sender(), message.receivers(), message.replyTo(), message.content(),
                message.language(), message.encoding(), message.ontology(), protocol,
                message.conversationId() != null ? message.conversationId() : protocol + "-" + UUID.randomUUID(),
                message.replyWith(), message.inReplyTo(), replyBy != null ? replyBy : message.replyBy(), message.userProperties());
    }

    /**
     * The one participant's final answer to {@code asked} when it is an INFORM; a REFUSE,
     * NOT_UNDERSTOOD, FAILURE or other answer is an {@link InteractionFailedException}, none (or an
     * AGREE only) a {@link NoReplyException}.
     */
    static ACLMessage informed(ACLMessage asked, List<ACLMessage> answers, Duration timeout) {
        ACLMessage last = answers.isEmpty() ? null : answers.get(answers.size() - 1);
        if (last == null || last.performative() == Performative.AGREE) {
            throw new NoReplyException(asked.receivers(), timeout);
        }
        if (last.performative() != Performative.INFORM) {
            throw new InteractionFailedException(asked.receivers().get(0) + " answered " + last.performative()
                    + (last.content() == null ? "" : ": " + last.content()), last);
        }
        return last;
    }
}
