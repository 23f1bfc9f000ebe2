package org.siebog.api;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;

/**
 * Voting ({@value #PROTOCOL}): the initiator puts a question to N voters with a deadline; each
 * voter answers INFORM with its choice as the content (anything else, or nothing by the deadline,
 * is an abstention); the choices are counted by a {@link Rule}. Voters are ordinary agents that
 * answer, server or client (JavaScript's {@code this.protocols.vote} is the same protocol):
 *
 * <pre>{@code
 * // initiator
 * Ballot.vote(this, ACLMessage.builder(Performative.REQUEST).receivers(committee).content("lunch? pizza|sushi").build(),
 *                 Duration.ofSeconds(10), Ballot.Rule.MAJORITY)
 *         .thenAccept(result -> order(result.winner()));   // null: no choice won
 *
 * // voter, in onMessage
 * if (Ballot.PROTOCOL.equals(msg.protocol())) {
 *     send(reply(msg, Performative.INFORM).content("sushi"));
 * }
 * }</pre>
 */
public final class Ballot {

    /** The protocol's name in the messages' {@code protocol} field. */
    public static final String PROTOCOL = "siebog-voting";

    /** How the votes decide. */
    public enum Rule {
        /** The choice with the most votes wins; a tie for the most votes: no winner. */
        PLURALITY,
        /** The choice with the votes of more than half of all the voters asked wins; else no winner. */
        MAJORITY
    }

    /**
     * What a ballot came to.
     *
     * @param winner the winning choice, or null when none won
     * @param tally  the votes of each choice, by choice
     * @param voters how many voters were asked
     * @param votes  how many voted (the others abstained or did not answer in time)
     */
    public record Result(String winner, Map<String, Integer> tally, int voters, int votes) implements Serializable {

        /**
         * Copies the tally.
         *
         * @param winner the winning choice, or null
         * @param tally  the votes of each choice
         * @param voters how many were asked
         * @param votes  how many voted
         */
        public Result {
            tally = Collections.unmodifiableMap(new TreeMap<>(tally));
        }
    }

    private Ballot() {
    }

    /**
     * Puts {@code question} to each of its receivers (protocol {@value #PROTOCOL}, {@code replyBy} the
     * deadline, a fresh {@code conversationId} unless it has one) and counts the votes, without
     * waiting: the stage completes on the agent's thread when every voter has answered or at the
     * deadline. A voter's vote is the content of its INFORM, trimmed; its first answer counts.
     *
     * @param agent    the initiator
     * @param question the question, to the voters
     * @param deadline how long the voters have
     * @param rule     how the votes decide
     * @return the result
     * @throws SiebogException this node refused the question (see {@link AgentContext#askAll})
     */
    public static CompletionStage<Result> vote(AbstractAgent agent, ACLMessage question, Duration deadline, Rule rule) {
        ACLMessage asked = Conversations.start(question, PROTOCOL, Instant.now().plus(deadline));
        int voters = asked.receivers().size();
        return agent.askAll(asked, deadline).thenApply(answers -> {
            Set<AID> voted = new HashSet<>();
            List<String> votes = answers.stream()
                    .filter(a -> a.performative() == Performative.INFORM && a.content() != null && !a.content().isBlank()
                            && (a.sender() == null || voted.add(a.sender())))
                    .map(a -> a.content().trim())
                    .toList();
            return count(votes, voters, rule);
        });
    }

    /**
     * Counts {@code votes} (one per voter who voted) of {@code voters} voters by {@code rule}.
     *
     * @param votes  the choices voted for
     * @param voters how many voters were asked
     * @param rule   how the votes decide
     * @return the result
     */
    public static Result count(List<String> votes, int voters, Rule rule) {
        Map<String, Integer> tally = new TreeMap<>();
        votes.forEach(vote -> tally.merge(vote, 1, Integer::sum));
        int most = tally.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        List<String> leaders = tally.entrySet().stream().filter(e -> e.getValue() == most).map(Map.Entry::getKey).toList();
        String winner = switch (rule) {
            case PLURALITY -> leaders.size() == 1 ? leaders.get(0) : null;
            case MAJORITY -> most * 2 > voters ? leaders.get(0) : null;
        };
        return new Result(winner, tally, voters, votes.size());
    }
}
