package org.siebog.examples.counter;

import jakarta.ejb.Stateless;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatelessAgent;

/**
 * Sends a burst of numbered INFORMs to a {@link Counter}: a REQUEST with content
 * {@code "<count> <counter AID> [<first number>]"} makes it send {@code count} messages numbered from
 * {@code first} (default 1) in the REQUEST's conversation, all from one handler, so they are in flight together.
 */
@Stateless
public class Ticker extends AbstractAgent implements StatelessAgent {

    @Override
    protected void onMessage(ACLMessage message) {
        if (message.performative() != Performative.REQUEST) {
            return;
        }
        String[] words = message.content().trim().split("\\s+");
        int count = Integer.parseInt(words[0]);
        AID counter = AID.parse(words[1]);
        long first = words.length > 2 ? Long.parseLong(words[2]) : 1;
        for (long seq = first; seq < first + count; seq++) {
            send(ACLMessage.builder(Performative.INFORM).receiver(counter)
                    .conversationId(message.conversationId()).content(Long.toString(seq)));
        }
    }
}
