package org.siebog.cluster;

import java.util.logging.Logger;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.Request;
import org.jgroups.blocks.RequestCorrelator;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.stack.Protocol;
import org.siebog.api.RemoteNodeException;

/**
 * JGroups' request correlator for Siebog's channel, taking only plain bytes as answers. JGroups'
 * own correlator reads an answer with {@code getPayload()}, which Java-deserialises one marked as a
 * serialised object and any exception answer (a request handler that threw): a peer could have this
 * node deserialise whatever it sent. Siebog's nodes answer only with bytes in {@link Wire}'s form, and
 * {@code NodeRequests} never throws, so any other answer is refused unread: the request fails as if the
 * node had failed (503), and the answer is logged.
 */
final class BytesOnlyCorrelator extends RequestCorrelator {

    private static final Logger LOG = Logger.getLogger(BytesOnlyCorrelator.class.getName());

    private BytesOnlyCorrelator(Protocol down, RequestHandler handler, Address local) {
        super(down, handler, local);
        // JGroups takes a correlator's header id from its class, and this subclass has none registered
        // (an id of 0, which JGroups refuses when it reads the header): use the one of its own class.
        corr_id = ClassConfigurator.getProtocolId(RequestCorrelator.class);
    }

    /** Puts one in {@code dispatcher} in place of JGroups' own. */
    static void install(MessageDispatcher dispatcher, Address local) {
        dispatcher.correlator(new BytesOnlyCorrelator((Protocol) dispatcher.protocolAdapter(), dispatcher, local));
    }

    @Override
    protected void handleResponse(Message answer, Header hdr) {
        if (hdr.type == Header.RSP && answer instanceof BytesMessage && !answer.isFlagSet(Message.Flag.SERIALIZED)) {
            super.handleResponse(answer, hdr);
            return;
        }
        Request<?> request = requests.get(hdr.req_id);
        String what = (hdr.type == Header.EXC_RSP ? "an exception" : "a serialised object") + " ("
                + answer.getClass().getSimpleName() + ")";
        LOG.warning(() -> "refused an answer from " + answer.getSrc() + ": " + what
                + " where Siebog's nodes answer with plain bytes; it was not read");
        if (request != null) {
            request.receiveResponse(new RemoteNodeException(String.valueOf(answer.getSrc()),
                    "it answered with " + what + ", which this node does not read"), answer.getSrc(), true);
        }
    }
}
