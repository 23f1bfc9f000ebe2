package org.siebog.examples.pingpong;

import java.util.Map;
import java.util.logging.Logger;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * Pings a {@link Pong} and counts the answers. Start it with {@code {"pong": "pong@siebog"}}; each
 * REQUEST it receives (content = how many pings, default 1) makes it ping that many times. It
 * answers a QUERY_REF with the number of pongs so far.
 */
@Stateful
public class Ping extends AbstractAgent implements StatefulAgent {

    private static final Logger LOG = Logger.getLogger(Ping.class.getName());

    private AID pong;
    private int pongs;

    @Override
    protected void onStart(Map<String, String> args) {
        String target = args.get("pong");
        if (target == null) {
            throw new IllegalArgumentException("Ping needs the argument 'pong': the AID of a Pong agent");
        }
        pong = AID.parse(target);
    }

    @Override
    protected void onMessage(ACLMessage message) {
        switch (message.performative()) {
            case REQUEST -> {
                int times = message.content() == null ? 1 : Integer.parseInt(message.content().trim());
                for (int i = 0; i < times; i++) {
                    send(ACLMessage.builder(Performative.REQUEST).receiver(pong).content("ping")
                            .conversationId(aid().name()).replyWith("ping-" + i));
                }
            }
            case INFORM -> {
                pongs++;
                LOG.fine(() -> aid() + " got " + message.content() + " #" + pongs + " from " + message.sender());
            }
            case QUERY_REF -> send(reply(message, Performative.INFORM).content(Integer.toString(pongs)));
            default -> send(reply(message, Performative.NOT_UNDERSTOOD).content(message.performative().name()));
        }
    }
}
