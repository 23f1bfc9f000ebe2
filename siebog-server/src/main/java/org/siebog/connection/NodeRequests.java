package org.siebog.connection;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.blocks.Response;
import org.siebog.agentmanager.ClientAgents;
import org.siebog.agentmanager.LocalAgents;
import org.siebog.agentmanager.Mobility;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.LinkDeliveries;
import org.siebog.cluster.NodeAnswer;
import org.siebog.cluster.NodeOp;
import org.siebog.cluster.Wire;
import org.siebog.delivery.MessageRouter;
import org.siebog.delivery.Sniffer;
import org.siebog.device.DeviceRelay;
import org.siebog.platform.Beans;
import org.siebog.platform.Failures;

/**
 * Serves what other nodes ask of this one. Deliveries come over the nodes' links and are admitted on
 * the thread that reads the link, in the order they arrived (a mailbox admission never blocks); the
 * other requests come over JGroups. Starting and stopping agents run the agents' own code and may
 * wait on the directory, so they move to a container thread and answer from there.
 */
@ApplicationScoped
public class NodeRequests implements RequestHandler, LinkDeliveries {

    private static final Logger LOG = Logger.getLogger(NodeRequests.class.getName());

    @Inject
    MessageRouter router;
    /** The router itself, not its client proxy ({@link Beans#direct}): every message another node sends goes to it. */
    private volatile MessageRouter directRouter;

    @Inject
    LocalAgents local;

    @Inject
    Mobility mobility;

    @Inject
    ClientAgents clientAgents;

    @Inject
    DeviceRelay devices;

    @Inject
    NodeHealthProbe health;

    @Inject
    ClusterEvents events;

    @Inject
    Sniffer sniffer;

    @Inject
    ClusterNode cluster;

    @Resource
    ManagedExecutorService workers;

    @Override
    public Object handle(Message request) {
        throw new UnsupportedOperationException("Siebog answers node requests asynchronously");
    }

    /**
     * Never throws: JGroups would send what it threw back as a Java-serialised exception, which the
     * asking node would have to deserialise. An unreadable request is answered with a refusal.
     */
    @Override
    public void handle(Message message, Response response) {
        try {
            if (!(message instanceof BytesMessage) || message.isFlagSet(Message.Flag.SERIALIZED)) {
                throw new IOException("a " + message.getClass().getSimpleName() + " where Siebog's nodes send plain bytes");
            }
            serve(NodeOp.read(new Wire.Reader(message.getArray(), message.getOffset(), message.getLength())), response);
        } catch (IOException | RuntimeException e) {
            // Another build's node (a version or operation this one does not know) or a garbled request.
            LOG.log(Level.WARNING, "refused an unreadable request from " + message.getSrc() + ": " + e);
            if (response != null) {
                response.send(NodeAnswer.of(new RemoteNodeException("its request was unreadable: " + e.getMessage())), false);
            }
        }
    }

    private void serve(NodeOp request, Response response) {
        if (request instanceof NodeOp.Deliver) {
            response.send(NodeAnswer.of(new RemoteNodeException("deliveries come over the nodes' links, not JGroups")), false);
        } else if (request instanceof NodeOp.LinkPort) {
            response.send(NodeOp.LinkPort.answer(cluster.linkPort()), false);
        } else if (request instanceof NodeOp.StartAgent start) {
            workers.execute(() -> response.send(answer(() -> local.start(start.agentClass(), start.name(), start.args(), start.pinned(),
                    start.device())), false));
        } else if (request instanceof NodeOp.MoveAgent move) {
            workers.execute(() -> response.send(moved(move), false));
        } else if (request instanceof NodeOp.AdoptAgent adopt) {
            workers.execute(() -> response.send(answer(() -> mobility.adopt(adopt.aid())), false));
        } else if (request instanceof NodeOp.StopAgent stop) {
            workers.execute(() -> response.send(answer(() -> local.stop(stop.aid(), stop.unregister())), false));
        } else if (request instanceof NodeOp.PushToDevice push) {
            devices.pushFromNode(push.device(), push.frame());
            response.send(answer(() -> { }), false);
        } else if (request instanceof NodeOp.DeviceEvent event) {
            devices.deviceEvent(event.aid(), event.device(), event.op(), event.seq(), event.detail());
            response.send(answer(() -> { }), false);
        } else if (request instanceof NodeOp.Health) {
            response.send(NodeOp.Health.answer(health.health()), false);
        } else if (request instanceof NodeOp.Event told) {
            events.toldBy(told.event());
            response.send(answer(() -> { }), false);
        } else if (request instanceof NodeOp.Watch watch) {
            response.send(answer(() -> sniffer.watchedFrom(watch.watcher(), watch.id(), watch.filter(), watch.leaseMillis())), false);
        } else if (request instanceof NodeOp.DeviceRates) {
            response.send(NodeOp.DeviceRates.answer(devices.messageRates()), false);
        } else if (request instanceof NodeOp.Heartbeat heartbeat) {
            response.send(cluster.heartbeatFrom(heartbeat), false);
        } else if (request instanceof NodeOp.Sniffed sniffed) {
            sniffer.copyArrived(sniffed.watchId(), sniffed.copy());
            response.send(answer(() -> { }), false);
        }
    }

    /**
     * Admits each message in order; answers once all are logged, one outcome per message. Nothing from
     * a sender this node has left out of its view in the session it sent in ({@link org.siebog.cluster.NodeLease#leftOutIn}).
     */
    @Override
    public void deliver(NodeOp.Deliver request, Consumer<byte[]> response) {
        List<CompletableFuture<Void>> admissions = new ArrayList<>(request.deliveries().size());
        SiebogException leftOut = leftOut(request);
        for (NodeOp.Delivery d : request.deliveries()) {
            admissions.add(leftOut != null ? CompletableFuture.failedFuture(leftOut) : admitHere(d));
        }
        CompletableFuture.allOf(admissions.toArray(CompletableFuture[]::new)).whenComplete((ok, failed) -> {
            Wire.Writer answer = NodeAnswer.writer();
            for (CompletableFuture<Void> admitted : admissions) {
                answer.outcome(refusalOf(admitted));
            }
            response.accept(answer.toBytes());
        });
    }

    /** Why none of {@code request} is admitted, or null: it was sent in a session this node has left its sender out in. */
    private SiebogException leftOut(NodeOp.Deliver request) {
        if (!cluster.lease().leftOutIn(request.from(), request.session())) {
            return null;
        }
        LOG.info(() -> "refused " + request.deliveries().size() + " messages from " + request.from() + ", sent in the session " + cluster.name()
                + " left it out in (a request retransmitted once a split healed)");
        return new RemoteNodeException("node " + cluster.name() + " left node " + request.from() + " out of the cluster (its agents were"
                + " taken over) after node " + request.from() + " sent the message: it admits none of what came in that session");
    }

    private CompletableFuture<Void> admitHere(NodeOp.Delivery d) {
        try {
            return router().admitHere(d.receiver(), d.id(), d.message());
        } catch (SiebogException refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
    }

    private static SiebogException refusalOf(CompletableFuture<Void> admitted) {
        try {
            admitted.join();
            return null;
        } catch (java.util.concurrent.CompletionException e) {
            return Failures.refusal(e, cause -> new RemoteNodeException("admission failed: " + cause));
        }
    }

    /** Moves the agent; answers where it runs now, or the refusal. */
    private byte[] moved(NodeOp.MoveAgent move) {
        String[] location = new String[1];
        byte[] refused = answer(() -> location[0] = move.node() != null ? mobility.moveNow(move.aid(), move.node()).location()
                : clientAgents.move(move.aid(), move.device(), move.untilStarted()).location());
        return location[0] != null ? NodeOp.MoveAgent.answer(location[0]) : refused;
    }

    private static byte[] answer(Runnable action) {
        SiebogException refusal = null;
        try {
            action.run();
        } catch (SiebogException e) {
            refusal = e;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a request from another node failed", e);
            refusal = new RemoteNodeException("the node failed: " + e);
        }
        return NodeAnswer.of(refusal);
    }

    /** Taken at the first message, when every bean exists. */
    private MessageRouter router() {
        MessageRouter r = directRouter;
        if (r == null) {
            directRouter = r = Beans.direct(router);
        }
        return r;
    }
}
