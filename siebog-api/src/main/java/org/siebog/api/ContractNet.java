package org.siebog.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * FIPA's Contract Net interaction protocol ({@value #PROTOCOL}): the initiator calls for proposals
 * (CFP) with a deadline ({@code replyBy}); each participant answers PROPOSE (its offer) or REFUSE;
 * proposals that come after the deadline are rejected at once by the platform (REJECT_PROPOSAL,
 * "too late") and never reach the initiator; the initiator accepts one proposal (ACCEPT_PROPOSAL)
 * and rejects the others (REJECT_PROPOSAL); the accepted participant does the work and answers
 * INFORM (the result) or FAILURE. Every message carries the CFP's {@code conversationId}.
 * Participants are ordinary agents that answer, server or client (JavaScript's
 * {@code this.protocols.callForProposals} and {@code award} are the same protocol):
 *
 * <pre>{@code
 * // initiator
 * ContractNet.callForProposals(this, ACLMessage.builder(Performative.CALL_FOR_PROPOSAL).receivers(sellers).content(title).build(),
 *                 Duration.ofSeconds(5))
 *         .thenCompose(proposals -> {
 *             ACLMessage cheapest = proposals.stream().min(comparing(p -> new BigDecimal(p.content()))).orElse(null);
 *             return ContractNet.award(this, proposals, cheapest, title, Duration.ofSeconds(5));
 *         })
 *         .thenAccept(sold -> ...)        // the winner's INFORM
 *         .exceptionally(failed -> ...);  // InteractionFailedException: nobody proposed, or the winner failed
 *
 * // participant, in onMessage
 * switch (msg.performative()) {
 *     case CALL_FOR_PROPOSAL -> send(reply(msg, price == null ? Performative.REFUSE : Performative.PROPOSE).content(price));
 *     case ACCEPT_PROPOSAL -> send(reply(msg, sold() ? Performative.INFORM : Performative.FAILURE).content(...));
 *     case REJECT_PROPOSAL -> { }
 * }
 * }</pre>
 */
public final class ContractNet {

    /** The protocol's name in the messages' {@code protocol} field. */
    public static final String PROTOCOL = "fipa-contract-net";

    private ContractNet() {
    }

    /**
     * Sends {@code cfp} to each of its receivers (protocol {@value #PROTOCOL}, {@code replyBy} the
     * deadline, a fresh {@code conversationId} unless it has one) and returns the proposals that came
     * by the deadline, in arrival order, without waiting: the stage completes on the agent's thread
     * when every participant has answered or at the deadline. REFUSEs and other answers are left
     * out; a late proposal is rejected by the platform. No proposals is an empty list, not a failure.
     *
     * @param agent    the initiator
     * @param cfp      the call for proposals (performative CALL_FOR_PROPOSAL), to its participants
     * @param deadline how long the participants have to propose
     * @return the PROPOSE messages that came in time
     * @throws SiebogException this node refused the call (see {@link AgentContext#askAll})
     */
    public static CompletionStage<List<ACLMessage>> callForProposals(AbstractAgent agent, ACLMessage cfp, Duration deadline) {
        ACLMessage call = Conversations.start(cfp, PROTOCOL, Instant.now().plus(deadline));
        return agent.askAll(call, deadline)
                .thenApply(answers -> answers.stream().filter(a -> a.performative() == Performative.PROPOSE).toList());
    }

    /**
     * Accepts {@code accepted} (ACCEPT_PROPOSAL, content {@code acceptContent}) and rejects every
     * other proposal (REJECT_PROPOSAL), then returns the accepted participant's result, without
     * waiting: the stage completes with its INFORM, or fails with {@link InteractionFailedException}
     * for its FAILURE (or any other answer), or with {@link NoReplyException} after {@code timeout}.
     * With {@code accepted} null every proposal is rejected and the stage fails with
     * {@link InteractionFailedException} (no answer attached).
     *
     * @param agent         the initiator
     * @param proposals     the proposals {@link #callForProposals} returned
     * @param accepted      the one to accept (one of {@code proposals}), or null to reject them all
     * @param acceptContent what the acceptance says (what is bought, for instance), or null
     * @param timeout       how long to wait for the result
     * @return the accepted participant's INFORM
     * @throws SiebogException this node refused a message (see {@link AgentContext#askAll})
     */
    public static CompletionStage<ACLMessage> award(AbstractAgent agent, List<ACLMessage> proposals, ACLMessage accepted,
            String acceptContent, Duration timeout) {
        for (ACLMessage proposal : proposals) {
            if (proposal != accepted) {
                agent.send(proposal.reply(Performative.REJECT_PROPOSAL).content(acceptContent).build());
            }
        }
        if (accepted == null) {
            return CompletableFuture.failedStage(new InteractionFailedException(proposals.isEmpty() ? "no participant proposed"
                    : "no proposal was accepted (" + proposals.size() + " rejected)", null));
        }
        ACLMessage acceptance = accepted.reply(Performative.ACCEPT_PROPOSAL).protocol(PROTOCOL).content(acceptContent).build();
        return agent.askAll(acceptance, timeout).thenApply(answers -> Conversations.informed(acceptance, answers, timeout));
    }
}
