package org.siebog.api;

/**
 * The kind of agent that keeps nothing between messages: a {@code @Stateless} session bean whose
 * instances are pooled. Any instance on any node may handle a given message, so the platform
 * balances its messages over the nodes (unless it was started pinned to one); one agent still
 * handles one message at a time, in order. Keep nothing in fields between messages.
 *
 * <pre>{@code
 * @Stateless
 * public class Echo extends AbstractAgent implements StatelessAgent {
 *     @Override
 *     protected void onMessage(ACLMessage msg) {
 *         send(reply(msg, Performative.INFORM).content(msg.content()));
 *     }
 * }
 * }</pre>
 */
public interface StatelessAgent extends Agent {
}
