package org.siebog.cluster.asking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * A stateful agent that ClusterIT deploys on every node to see what becomes of a question open when
 * its node dies. A REQUEST {@code "<aid> <timeout ms>"} makes it ask that agent (QUERY_REF) and note
 * {@code asked}; its stage notes {@code answered} or {@code failed}; a FAILURE that stands for a question
 * lost with its node notes {@code lost}; any other message in reply to a question of its notes
 * {@code late}. A QUERY_REF gets what it noted, space-separated.
 */
@Stateful
public class Asker extends AbstractAgent implements StatefulAgent {

    private final List<String> noted = new ArrayList<>();

    @Override
    protected void onMessage(ACLMessage message) {
        if (message.performative() == Performative.QUERY_REF && message.inReplyTo() == null) {
            send(reply(message, Performative.INFORM).content(String.join(" ", noted)));
        } else if (message.performative() == Performative.REQUEST) {
            String[] words = message.content().trim().split("\\s+");
            noted.add("asked");
            ask(ACLMessage.builder(Performative.QUERY_REF).receiver(AID.parse(words[0])), Duration.ofMillis(Long.parseLong(words[1])))
                    .whenComplete((answer, failure) -> noted.add(failure == null ? "answered" : "failed"));
        } else if ("true".equals(message.userProperties().get("siebog-question-lost"))) {
            noted.add("lost");
        } else if (message.inReplyTo() != null) {
            noted.add("late");
        }
    }
}
