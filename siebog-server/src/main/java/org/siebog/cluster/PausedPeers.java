package org.siebog.cluster;

import java.util.logging.Logger;

import org.jgroups.protocols.Bundler;
import org.jgroups.protocols.PerDestinationBundler;
import org.jgroups.protocols.TP;

/**
 * Keeps a paused peer from silencing this node's JGroups transport, which WildFly's configuration
 * cannot do (it takes no bundler properties, and no socket timeouts).
 *
 * <p>A paused node (a long GC, a frozen VM, SIGSTOP) reads nothing and answers no TLS handshake,
 * while its kernel still accepts connections and bytes, so whatever thread writes to it or connects
 * to it waits, for as long as the pause. The transport's bundler sends every message of the node,
 * to every destination, from one thread by default: once that thread waited on the paused node
 * (discovery reconnects to a node that left the view, every few seconds), the other nodes heard
 * nothing from this one, suspected it, and two healthy nodes of three lost each other within
 * seconds of the third being paused (measured here, with thread dumps). Hence:
 * <ul>
 * <li>a sender thread per destination ({@link PerDestinationBundler} without its single sender
 *     thread): a paused node's wait holds up only the messages for it;</li>
 * <li>a timeout on the TLS handshake of the connections this node opens
 *     ({@link HandshakeTimeoutSockets}).</li>
 * </ul>
 * Both are put in place when the application joins, and the socket factory is given back when it
 * leaves (the channel is WildFly's; the bundler stays, it holds nothing of the application's).
 */
final class PausedPeers {

    private static final Logger LOG = Logger.getLogger(PausedPeers.class.getName());

    private PausedPeers() {
    }

    static void guard(TP transport) {
        HandshakeTimeoutSockets.install(transport);
        Bundler bundler = transport.getBundler();
        if (bundler instanceof PerDestinationBundler current && current.useSingleSenderThread()) {
            PerDestinationBundler perDestination = new PerDestinationBundler();
            perDestination.setCapacity(current.getCapacity());
            perDestination.useSingleSenderThread(false);
            transport.setBundler(perDestination);
            LOG.info("JGroups sends to each node from a thread of its own: a paused node holds up only its own messages");
        }
    }

    static void release(TP transport) {
        HandshakeTimeoutSockets.uninstall(transport);
    }
}
