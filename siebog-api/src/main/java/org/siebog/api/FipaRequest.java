package org.siebog.api;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * FIPA's Request interaction protocol ({@value #PROTOCOL}): the initiator asks one agent to do
 * something; the participant may first AGREE (the result will follow) and then answers INFORM
 * (done, perhaps with a result), or REFUSE, NOT_UNDERSTOOD or FAILURE. It runs over ordinary
 * messages, so the participant may be any agent, server or client (JavaScript's
 * {@code this.protocols.request} is the same protocol), and is just an agent that answers:
 *
 * <pre>{@code
 * // initiator
 * FipaRequest.request(this, ACLMessage.builder(Performative.REQUEST).receiver(printer).content("print report-7").build(),
 *                 Duration.ofSeconds(30))
 *         .thenAccept(done -> log.info("printed: " + done.content()))
 *         .exceptionally(failed -> { retryLater(); return null; });   // InteractionFailedException, NoReplyException
 *
 * // participant, in onMessage
 * if (FipaRequest.PROTOCOL.equals(msg.protocol()) && msg.performative() == Performative.REQUEST) {
 *     send(reply(msg, Performative.AGREE));                    // optional
 *     send(reply(msg, Performative.INFORM).content("done"));   // or FAILURE / REFUSE
 * }
 * }</pre>
 */
public final class FipaRequest {

    /** The protocol's name in the messages' {@code protocol} field. */
    public static final String PROTOCOL = "fipa-request";

    private FipaRequest() {
    }

    /**
     * Sends {@code request} (protocol {@value #PROTOCOL}, a fresh {@code conversationId} unless it has
     * one) and returns its result, without waiting: the stage completes on the agent's thread, as an
     * {@link AbstractAgent#ask ask}'s does, with the participant's INFORM, after an AGREE if one
     * came. It fails with {@link InteractionFailedException} for a REFUSE, NOT_UNDERSTOOD or FAILURE
     * (or any other answer), and with {@link NoReplyException} when no final answer came in time.
     *
     * @param agent   the initiator
     * @param request the REQUEST, to exactly one receiver
     * @param timeout how long to wait for the final answer, AGREE or not
     * @return the participant's INFORM
     * @throws MalformedMessageException not one receiver
     * @throws SiebogException           this node refused the request (see {@link AgentContext#askAll})
     */
    public static CompletionStage<ACLMessage> request(AbstractAgent agent, ACLMessage request, Duration timeout) {
        if (request.receivers().size() != 1) {
            throw new MalformedMessageException("a FIPA request goes to exactly one agent; this one names " + request.receivers().size());
        }
        ACLMessage asked = Conversations.start(request, PROTOCOL, null);
        return agent.askAll(asked, timeout).thenApply(answers -> Conversations.informed(asked, answers, timeout));
    }
}
