package org.siebog.delivery;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.json.JsonObject;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Agent;
import org.siebog.api.AgentContext;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.Performative;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.message.JsonActions;
import org.siebog.platform.Failures;

/**
 * A FIPA agent of the platform itself ({@code df@<platform>}, {@code topics@<platform>}), hosted on
 * every node in no directory (like a reply inbox), so a message to it is handled on its sender's
 * node. It takes REQUESTs whose content is a JSON action and answers each with INFORM and the
 * action's result, FAILURE {@code {"status", "error"}} when the action was refused (the statuses of
 * the REST API), or NOT_UNDERSTOOD of the same shape for content that is no such action or another
 * performative. An action whose result is a future is answered when it completes, without holding
 * the agent's lane meanwhile. Nothing of it is state: what it serves lives in replicated caches.
 */
public abstract class JsonActionAgent implements Agent {

    private static final Logger LOG = Logger.getLogger(JsonActionAgent.class.getName());

    private final AID aid;
    private final String ontology;
    private final String actsForSender;

    /** {@code actsForSender}: why an action needs the message's sender, for the refusal of one without. */
    protected JsonActionAgent(AID aid, String ontology, String actsForSender) {
        this.aid = aid;
        this.ontology = ontology;
        this.actsForSender = actsForSender;
    }

    public AID aid() {
        return aid;
    }

    /**
     * Does what {@code request} asks (a REQUEST with JSON content); what it throws is the refusal.
     * Completes with the answer's content, a JSON object's text: most agents write out a
     * {@code JsonObject}; one that holds much of an answer as JSON text already (the DF's entries, as its
     * cache keeps them) puts that text together instead of building objects to write again.
     *
     * @throws JsonActions.NotUnderstood the content is not an action of this agent
     */
    protected abstract CompletableFuture<String> act(ACLMessage request);

    /** The message's sender, for the actions that act for it; a message without one is refused (400). */
    protected AID sender(ACLMessage request, String action) {
        if (request.sender() == null) {
            throw new InvalidAgentRequestException(action + " acts for the message's sender: " + actsForSender);
        }
        return request.sender();
    }

    @Override
    public final void handle(AgentContext context, ACLMessage request) {
        if (request.sender() == null && request.replyTo() == null) {
            LOG.fine(() -> aid + ": a message with no sender and no replyTo has no one to answer: " + request);
            return;
        }
        CompletableFuture<String> result;
        try {
            if (request.performative() != Performative.REQUEST) {
                throw new JsonActions.NotUnderstood(aid.name() + " understands REQUESTs only, got " + request.performative());
            }
            result = act(request);
        } catch (JsonActions.NotUnderstood e) {
            answer(context, request, Performative.NOT_UNDERSTOOD, JsonActions.failure(400, e.getMessage()));
            return;
        } catch (SiebogException refused) {
            answer(context, request, Performative.FAILURE, JsonActions.failure(refused.status(), refused.getMessage()));
            return;
        }
        result.whenComplete((json, failed) -> {
            if (failed == null) {
                answer(context, request, Performative.INFORM, json);
            } else {
                SiebogException refused = Failures.refusal(failed, cause -> new RemoteNodeException("could not be written on every node: " + cause));
                answer(context, request, Performative.FAILURE, JsonActions.failure(refused.status(), refused.getMessage()));
            }
        });
    }

    private void answer(AgentContext context, ACLMessage request, Performative performative, JsonObject content) {
        answer(context, request, performative, content.toString());
    }

    private void answer(AgentContext context, ACLMessage request, Performative performative, String content) {
        try {
            context.send(request.reply(performative).sender(aid).language("json").ontology(ontology).content(content).build());
        } catch (SiebogException e) {
            LOG.log(Level.INFO, "{0} could not answer {1}: {2}", new Object[] {aid, request.sender(), e.getMessage()});
        }
    }

    @Override
    public void start(AgentContext context, Map<String, String> args) {
    }

    @Override
    public void stop(AgentContext context) {
    }

    @Override
    public byte[] saveState() {
        return new byte[0];
    }

    @Override
    public void restoreState(AgentContext context, byte[] state) {
    }
}
