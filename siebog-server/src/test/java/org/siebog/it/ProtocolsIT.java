package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.ejb.EJB;
import jakarta.inject.Inject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentManager;
import org.siebog.api.MessageManager;
import org.siebog.api.Performative;
import org.siebog.it.agents.AgentRecords;

/**
 * The interaction protocols between Java agents ({@code Initiator} runs them on command against
 * {@code Participant}s): FIPA Request past an AGREE, refused, unanswered and to no one; Contract
 * Net with a refusal, a late proposal rejected by the platform, the cheapest accepted and the rest
 * rejected, and a winner that fails; ballots by plurality and by majority with abstentions. The
 * browser tests run the same protocols between Java and JavaScript agents.
 */
@ExtendWith(ArquillianExtension.class)
class ProtocolsIT {

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(ProtocolsIT.class, SiebogApi.class);
    }

    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    @EJB(lookup = MessageManager.JNDI_NAME)
    MessageManager messages;

    @Inject
    AgentRecords records;

    @AfterEach
    void stopAll() {
        agents.agents().stream().filter(a -> a.agentClass().equals("Participant") || a.agentClass().equals("Initiator"))
                .forEach(a -> agents.stop(a.aid()));
    }

    @Test
    void aFipaRequestEndsWithTheInformPastAnAgreeOrFailsSayingWhy() {
        AID initiator = start("Initiator", "req-initiator", Map.of());
        start("Participant", "req-agreeing", Map.of("request", "agree"));
        start("Participant", "req-refusing", Map.of("request", "refuse"));
        start("Participant", "req-silent", Map.of("request", "silent"));

        assertEquals("ok done print-7", command(initiator, "request req-agreeing@siebog 5000 print-7"));
        List<String> received = records.of("req-agreeing").messages().stream().map(AgentRecords.Entry::performative).toList();
        assertEquals(List.of("REQUEST"), received);
        assertTrue(command(initiator, "request req-refusing@siebog 5000 print-8").startsWith("failed REFUSE req-refusing@siebog answered REFUSE: not today"));
        assertEquals("failed no-reply", command(initiator, "request req-silent@siebog 500 print-9"));
        String nobody = command(initiator, "request nobody@siebog 5000 print-10");
        assertTrue(nobody.startsWith("failed FAILURE") && nobody.contains("not delivered") && nobody.contains("nobody@siebog"), nobody);
    }

    @Test
    void aContractNetAcceptsTheCheapestInTimeRejectsTheRestAndTheLateOneIsRejectedByThePlatform() {
        AID initiator = start("Initiator", "cn-initiator", Map.of());
        start("Participant", "cn-dear", Map.of("price", "30.00"));
        start("Participant", "cn-cheap", Map.of("price", "20.50"));
        start("Participant", "cn-none", Map.of());
        start("Participant", "cn-late", Map.of("price", "1.00", "proposeAfterMs", "1500"));

        String outcome = command(initiator, "cfp 700 cn-dear@siebog,cn-cheap@siebog,cn-none@siebog,cn-late@siebog moby-dick");
        assertEquals("won cn-cheap done moby-dick", outcome);
        assertEquals(List.of("CALL_FOR_PROPOSAL", "ACCEPT_PROPOSAL"), performatives("cn-cheap"));
        assertEquals(List.of("CALL_FOR_PROPOSAL", "REJECT_PROPOSAL"), performatives("cn-dear"));
        assertEquals(List.of("CALL_FOR_PROPOSAL"), performatives("cn-none"), "a refusal hears nothing more");
        SiebogApi.await("the late proposal rejected", () -> performatives("cn-late").size() == 2);
        AgentRecords.Entry rejected = records.of("cn-late").messages().get(1);
        assertEquals("REJECT_PROPOSAL", rejected.performative());
        assertTrue(rejected.content().startsWith("too late: proposals were due by "), rejected.content());
        assertEquals(records.of("cn-late").messages().get(0).conversationId(), rejected.conversationId(), "in the call's conversation");

        start("Participant", "cn-failing", Map.of("price", "5", "failOnAccept", "true"));
        assertTrue(command(initiator, "cfp 2000 cn-dear@siebog,cn-failing@siebog war-and-peace").startsWith("failed FAILURE cn-failing@siebog answered FAILURE: sold out"));
        assertTrue(command(initiator, "cfp 2000 cn-none@siebog war-and-peace").startsWith("failed none no participant proposed"));
    }

    @Test
    void aBallotCountsTheVotesInTimeByPluralityOrMajority() {
        AID initiator = start("Initiator", "vote-initiator", Map.of());
        start("Participant", "voter-1", Map.of("vote", "pizza"));
        start("Participant", "voter-2", Map.of("vote", "pizza"));
        start("Participant", "voter-3", Map.of("vote", "sushi"));
        start("Participant", "voter-4", Map.of());
        start("Participant", "voter-5", Map.of());
        String five = "voter-1@siebog,voter-2@siebog,voter-3@siebog,voter-4@siebog,voter-5@siebog";

        assertEquals("winner=pizza votes=3 tally={pizza=2, sushi=1}", command(initiator, "vote PLURALITY 800 " + five + " lunch?"));
        assertEquals("winner=null votes=3 tally={pizza=2, sushi=1}", command(initiator, "vote MAJORITY 800 " + five + " lunch?"),
                "2 of 5 is no majority");
        long began = System.nanoTime();
        assertEquals("winner=pizza votes=3 tally={pizza=2, sushi=1}",
                command(initiator, "vote MAJORITY 30000 voter-1@siebog,voter-2@siebog,voter-3@siebog lunch?"));
        assertTrue(System.nanoTime() - began < Duration.ofSeconds(20).toNanos(), "over when everyone voted, not at the deadline");
    }

    private AID start(String agentClass, String name, Map<String, String> args) {
        return agents.start(agentClass, name, args).aid();
    }

    private List<String> performatives(String agent) {
        return records.of(agent).messages().stream().map(AgentRecords.Entry::performative).toList();
    }

    private String command(AID initiator, String command) {
        return messages.askAsync(ACLMessage.builder(Performative.REQUEST).receiver(initiator).content(command).build(), Duration.ofSeconds(60))
                .toCompletableFuture().join().content();
    }
}
