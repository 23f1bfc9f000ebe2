package org.siebog.connection;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
import org.siebog.agentmanager.LocalAgents;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.cluster.Wire;
import org.siebog.delivery.MessageRouter;
import org.siebog.device.WebClientManagerBean;
import org.siebog.message.MessageId;

/**
 * Serves what other nodes ask of this one. Deliveries are admitted on the JGroups thread, in the
 * order they arrived (a mailbox admission never blocks); starting and stopping agents run the
 * agents' own code and may wait on the directory, so they move to a container thread and answer
 * from there.
 */
@ApplicationScoped
public class NodeRequests implements RequestHandler {

    private static final Logger LOG = Logger.getLogger(NodeRequests.class.getName());

    @Inject
    MessageRouter router;

    @Inject
    LocalAgents local;

    @Inject
    WebClientManagerBean webClients;

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
            serve(new Wire.Reader(message.getArray(), message.getOffset(), message.getLength()), response);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "refused an unreadable request from " + message.getSrc() + ": " + e);
            if (response != null) {
                response.send(new Wire.Writer().outcome(new RemoteNodeException("its request was unreadable: " + e)).toBytes(), false);
            }
        }
    }

    private void serve(Wire.Reader request, Response response) throws IOException {
        switch (request.op()) {
            case DELIVER -> deliver(request, response);
            case START -> {
                String agentClass = request.string();
                String name = request.string();
                Map<String, String> args = request.map();
                boolean pinned = request.bool();
                String device = request.string();
                workers.execute(() -> response.send(answer(() -> local.start(agentClass, name, args, pinned, device)), false));
            }
            case PUSH -> {
                String device = request.string();
                webClients.pushFromNode(device, request.string());
                response.send(answer(() -> { }), false);
            }
            case DEVICE_EVENT -> {
                AID aid = request.aid();
                String device = request.string();
                String op = request.string();
                long seq = request.int64();
                String detail = request.string();
                webClients.toProxy(aid, device, op, seq, detail);
                response.send(answer(() -> { }), false);
            }
            case STOP -> {
                AID aid = request.aid();
                boolean unregister = request.bool();
                workers.execute(() -> response.send(answer(() -> local.stop(aid, unregister)), false));
            }
        }
    }

    /** Admits each message in order; answers once all are logged, one outcome per message. */
    private void deliver(Wire.Reader request, Response response) throws IOException {
        int n = request.integer();
        List<CompletableFuture<Void>> admissions = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            AID receiver = request.aid();
            MessageId id = new MessageId(request.string(), request.int64());
            ACLMessage message = request.sharedMessage();
            CompletableFuture<Void> admitted;
            try {
                admitted = router.admitHere(receiver, id, message);
            } catch (SiebogException refusal) {
                admitted = CompletableFuture.failedFuture(refusal);
            }
            admissions.add(admitted);
        }
        CompletableFuture.allOf(admissions.toArray(CompletableFuture[]::new)).whenComplete((ok, failed) -> {
            Wire.Writer answer = new Wire.Writer();
            for (CompletableFuture<Void> admitted : admissions) {
                answer.outcome(refusalOf(admitted));
            }
            response.send(answer.toBytes(), false);
        });
    }

    private static SiebogException refusalOf(CompletableFuture<Void> admitted) {
        try {
            admitted.join();
            return null;
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause() instanceof SiebogException refusal ? refusal : new RemoteNodeException("admission failed: " + e.getCause());
        }
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
        return new Wire.Writer().outcome(refusal).toBytes();
    }
}
