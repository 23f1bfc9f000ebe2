package org.siebog.it.agents;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Ballot;
import org.siebog.api.ContractNet;
import org.siebog.api.FipaRequest;
import org.siebog.api.InteractionFailedException;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * Runs an interaction protocol on command, for ProtocolsIT, and answers the command with how it
 * ended (INFORM): a REQUEST
 * <ul>
 * <li>{@code request <aid> <timeoutMs> <content>} → {@code ok <result>} or {@code failed <why>};</li>
 * <li>{@code cfp <deadlineMs> <aid,aid,...> <task>} → the cheapest proposal is accepted:
 * {@code won <winner> <result>}, or {@code failed <why>};</li>
 * <li>{@code vote <PLURALITY|MAJORITY> <deadlineMs> <aid,aid,...> <question>} → {@code winner=<w> votes=<n> tally=<tally>}.</li>
 * </ul>
 * {@code <why>}: the performative that ended it (REFUSE, FAILURE, ...) or {@code no-reply}.
 */
@Stateful
public class Initiator extends AbstractAgent implements StatefulAgent {

    @Override
    protected void onMessage(ACLMessage command) {
        if (command.performative() != Performative.REQUEST || command.content() == null) {
            return;
        }
        String[] words = command.content().split(" ", 5);
        CompletionStage<String> outcome = switch (words[0]) {
            case "request" -> FipaRequest.request(this, ACLMessage.builder(Performative.REQUEST).receiver(AID.parse(words[1]))
                    .content(words[3]).build(), Duration.ofMillis(Long.parseLong(words[2]))).thenApply(result -> "ok " + result.content());
            case "cfp" -> ContractNet.callForProposals(this, ACLMessage.builder(Performative.CALL_FOR_PROPOSAL).receivers(aids(words[2]))
                    .content(words[3]).build(), Duration.ofMillis(Long.parseLong(words[1])))
                    .thenCompose(proposals -> {
                        ACLMessage cheapest = proposals.stream().min(Comparator.comparing(p -> new BigDecimal(p.content()))).orElse(null);
                        return ContractNet.award(this, proposals, cheapest, words[3], Duration.ofSeconds(5))
                                .thenApply(result -> "won " + result.sender().name() + " " + result.content());
                    });
            case "vote" -> Ballot.vote(this, ACLMessage.builder(Performative.REQUEST).receivers(aids(words[3])).content(words[4]).build(),
                    Duration.ofMillis(Long.parseLong(words[2])), Ballot.Rule.valueOf(words[1]))
                    .thenApply(r -> "winner=" + r.winner() + " votes=" + r.votes() + " tally=" + r.tally());
            default -> throw new IllegalArgumentException("unknown command " + words[0]);
        };
        outcome.exceptionally(Initiator::why).thenAccept(text -> send(reply(command, Performative.INFORM).content(text)));
    }

    private static String why(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof InteractionFailedException failed) {
            return "failed " + (failed.answer() == null ? "none" : failed.answer().performative()) + " " + failed.getMessage();
        }
        return "failed " + (cause instanceof org.siebog.api.NoReplyException ? "no-reply" : cause.toString());
    }

    private static List<AID> aids(String list) {
        return Arrays.stream(list.split(",")).map(AID::parse).toList();
    }
}
