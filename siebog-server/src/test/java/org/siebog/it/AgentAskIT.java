package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.util.List;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Records;
import org.siebog.it.SiebogApi.Reply;
import org.siebog.it.agents.AskingAgent;

/**
 * An agent's {@code ask}: the answer reaches the stage, not the handler, on the agent's lane (a
 * stateful agent's field changed by the stage is there at its next message); a timeout and a
 * refusal end the stage; what this node refuses is thrown at once; an agent's open questions are
 * bounded ({@code siebog.agent.max-pending-asks}, 20 on the test server). The askers and their commands are {@link AskingAgent}'s.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AgentAskIT {

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(AgentAskIT.class, SiebogApi.class);
    }

    /** The test server's {@code siebog.agent.max-pending-asks} (arquillian.xml). */
    private static final int MAX_PENDING = Integer.getInteger("siebog.it.maxPendingAsks", 20);

    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    void aStatefulAgentsAnswersReachItsStagesInOrderAndTheirChangesAreItsState() {
        String asker = siebog.startAgent("Asker", "asks-echo");
        String echo = siebog.startAgent("Recorder", "echoes");
        siebog.send(message("REQUEST").to(asker).content("ask " + echo + " 10000 3 REQUEST").json());

        Records records = siebog.awaitRecords("asks-echo", "three answers", r -> r.events().size() >= 4);
        assertEquals(List.of("started", "answered question 0 true", "answered question 1 true", "answered question 2 true"),
                records.events());
        assertEquals(List.of("REQUEST"), records.messages().stream().map(m -> m.getString("performative")).toList(),
                "the answers went to the stages, not to the handler");
        List<String> asked = siebog.awaitRecords("echoes", "three questions", r -> r.messages().size() == 3).messages().stream()
                .map(m -> m.getString("replyWith", "") + " " + m.getString("sender", "")).toList();
        asked.forEach(question -> assertTrue(question.startsWith("ask-") && question.endsWith(" " + asker), question));

        Reply state = siebog.post("messages?awaitReplyMs=10000", message("QUERY_REF").to(asker).json().toString());
        assertEquals(200, state.status(), state::toString);
        assertEquals("question 0,question 1,question 2", state.object().getString("content"),
                "the stages changed the agent's field, between its messages");
        siebog.stopAgent(asker);
        siebog.stopAgent(echo);
    }

    @Test
    void aBalancedStatelessAgentsAnswerComesBackToTheAskingNode() {
        String asker = siebog.startAgent("StatelessAsker", "stateless-asks");
        String pong = siebog.startAgent("Responder", "pongs");
        siebog.send(message("REQUEST").to(asker).content("ask " + pong + " 10000 2 REQUEST").json());

        Records records = siebog.awaitRecords("stateless-asks", "two answers", r -> r.events().size() >= 3);
        assertEquals(List.of("started", "answered pong true", "answered pong true"), records.events());
        assertEquals(1, records.messages().size(), "only the command reached the handler: " + records);
        siebog.stopAgent(asker);
        siebog.stopAgent(pong);
    }

    @Test
    void noAnswerInTimeEndsTheStageWith504AndALateAnswerReachesTheHandler() {
        String asker = siebog.startAgent("Asker", "asks-the-silent");
        String silent = siebog.startAgent("Recorder", "stays-silent");
        siebog.send(message("REQUEST").to(asker).content("ask " + silent + " 300 1 QUERY_IF").json());

        Records records = siebog.awaitRecords("asks-the-silent", "the timeout", r -> r.events().size() >= 2);
        assertEquals(List.of("started", "failed 504 NoReplyException"), records.events());

        String replyWith = siebog.records("stays-silent").messages().get(0).getString("replyWith");
        siebog.send(message("INFORM").to(asker).content("too late").field("inReplyTo", replyWith).json());
        records = siebog.awaitRecords("asks-the-silent", "the late answer", r -> r.messages().size() >= 2);
        assertEquals("too late", records.messages().get(1).getString("content"), "a question that ended takes no answer");
        assertEquals(2, records.events().size(), records::toString);
        siebog.stopAgent(asker);
        siebog.stopAgent(silent);
    }

    @Test
    void whatTheNodeRefusesIsThrownAtOnceAndNothingIsSent() {
        String asker = siebog.startAgent("Asker", "asks-badly");
        String echo = siebog.startAgent("Recorder", "never-asked");
        siebog.send(message("REQUEST").to(asker).content("ask " + echo + " 0 1 REQUEST").json());
        siebog.send(message("REQUEST").to(asker).content("ask " + echo + " 300001 1 REQUEST").json());
        siebog.send(message("REQUEST").to(asker).content("ask nobody@siebog 1000 1 REQUEST").json());

        Records records = siebog.awaitRecords("asks-badly", "three refusals", r -> r.events().size() >= 4);
        assertEquals(List.of("started", "refused 400 MalformedMessageException", "refused 400 MalformedMessageException",
                "refused 404 UnknownAgentException"), records.events());
        assertEquals(0, siebog.records("never-asked").messages().size());
        siebog.stopAgent(asker);
        siebog.stopAgent(echo);
    }

    @Test
    void anAgentAwaitsAtMostItsLimitOfAnswersAndHasRoomAgainOnceTheyEnd() {
        String asker = siebog.startAgent("Asker", "asks-too-much");
        String silent = siebog.startAgent("Recorder", "asked-too-much");
        siebog.send(message("REQUEST").to(asker).content("ask " + silent + " 2000 " + (MAX_PENDING + 1) + " QUERY_IF").json());

        Records records = siebog.awaitRecords("asks-too-much", "the timeouts", r -> r.events().size() >= MAX_PENDING + 2);
        assertEquals("refused 503 AsksFullException", records.events().get(1), "the question over the limit, while the others were open");
        assertEquals(MAX_PENDING, records.events().stream().filter("failed 504 NoReplyException"::equals).count(), records::toString);
        assertEquals(MAX_PENDING, siebog.awaitRecords("asked-too-much", "the questions", r -> r.messages().size() >= MAX_PENDING)
                .messages().size(), "the refused one was not sent");

        String echo = siebog.startAgent("Recorder", "asked-again");
        siebog.send(message("REQUEST").to(asker).content("ask " + echo + " 10000 1 REQUEST").json());
        siebog.awaitRecords("asks-too-much", "an answer again", r -> r.events().contains("answered question 0 true"));
        siebog.stopAgent(asker);
        siebog.stopAgent(silent);
        siebog.stopAgent(echo);
    }
}
