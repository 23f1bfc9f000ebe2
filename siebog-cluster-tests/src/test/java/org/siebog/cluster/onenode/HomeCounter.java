package org.siebog.cluster.onenode;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;

/**
 * A stateful agent that ClusterIT deploys on one node only: a move to another node cannot be taken
 * there (its class is not deployed), so the agent carries on at home. It counts numbered INFORMs as
 * the examples' Counter does, for one stream: a QUERY_REF gets {@code handled=N gaps=G outOfOrder=O}.
 */
@Stateful
public class HomeCounter extends AbstractAgent implements StatefulAgent {

    private long handled;
    private long last;
    private long gaps;
    private long outOfOrder;

    @Override
    protected void onMessage(ACLMessage message) {
        if (message.performative() == Performative.QUERY_REF) {
            send(reply(message, Performative.INFORM).content("handled=" + handled + " gaps=" + gaps + " outOfOrder=" + outOfOrder));
            return;
        }
        handled++;
        long seq = Long.parseLong(message.content().trim());
        if (seq > last + 1) {
            gaps += seq - last - 1;
        } else if (seq <= last) {
            outOfOrder++;
        }
        last = Math.max(last, seq);
    }
}
