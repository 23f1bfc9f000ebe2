package org.siebog.it.agents;

import java.time.Duration;
import java.util.Map;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.Ballot;
import org.siebog.api.ContractNet;
import org.siebog.api.FipaRequest;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * The other side of the interaction protocols, for ProtocolsIT, as its start arguments say (and a
 * {@link RecordingAgent}: it records every message):
 * <ul>
 * <li>a FIPA request: {@code request} = {@code agree} (AGREE, then INFORM "done &lt;content&gt;"),
 * {@code refuse}, {@code silent}; otherwise INFORM "done &lt;content&gt;";</li>
 * <li>a call for proposals: PROPOSE {@code price}, after {@code proposeAfterMs} if given; no price:
 * REFUSE; an accepted proposal: INFORM "done &lt;content&gt;", or FAILURE with {@code failOnAccept=true};</li>
 * <li>a ballot: INFORM {@code vote}; no vote: no answer.</li>
 * </ul>
 */
@Stateful
public class Participant extends RecordingAgent implements StatefulAgent {

    @Override
    protected void answer(ACLMessage message) {
        Map<String, String> args = records.of(aid().name()).args();
        String protocol = String.valueOf(message.protocol());
        switch (protocol) {
            case FipaRequest.PROTOCOL -> {
                switch (args.getOrDefault("request", "inform")) {
                    case "agree" -> {
                        send(reply(message, Performative.AGREE));
                        send(reply(message, Performative.INFORM).content("done " + message.content()));
                    }
                    case "refuse" -> send(reply(message, Performative.REFUSE).content("not today"));
                    case "silent" -> { }
                    default -> send(reply(message, Performative.INFORM).content("done " + message.content()));
                }
            }
            case ContractNet.PROTOCOL -> {
                if (message.performative() == Performative.CALL_FOR_PROPOSAL) {
                    String price = args.get("price");
                    if (price == null) {
                        send(reply(message, Performative.REFUSE));
                    } else if (args.containsKey("proposeAfterMs")) {
                        sendLater(reply(message, Performative.PROPOSE).content(price).build(),
                                Duration.ofMillis(Long.parseLong(args.get("proposeAfterMs"))));
                    } else {
                        send(reply(message, Performative.PROPOSE).content(price));
                    }
                } else if (message.performative() == Performative.ACCEPT_PROPOSAL) {
                    boolean fail = Boolean.parseBoolean(args.get("failOnAccept"));
                    send(reply(message, fail ? Performative.FAILURE : Performative.INFORM).content(fail ? "sold out" : "done " + message.content()));
                }
            }
            case Ballot.PROTOCOL -> {
                if (args.containsKey("vote")) {
                    send(reply(message, Performative.INFORM).content(args.get("vote")));
                }
            }
            default -> super.answer(message);
        }
    }
}
