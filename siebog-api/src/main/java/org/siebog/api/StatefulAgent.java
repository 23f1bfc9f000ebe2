package org.siebog.api;

/**
 * The kind of agent that keeps state: a {@code @Stateful} session bean with one instance per agent,
 * whose fields live from message to message. Implementing it is what makes a bean a stateful agent
 * class: the platform finds every session bean with this business interface in every deployment.
 *
 * <pre>{@code
 * @Stateful
 * public class Counter extends AbstractAgent implements StatefulAgent {
 *     private int count;
 *
 *     @Override
 *     protected void onMessage(ACLMessage msg) {
 *         send(reply(msg, Performative.INFORM).content(Integer.toString(++count)));
 *     }
 * }
 * }</pre>
 *
 * <p>Its state is its fields, and it is replicated to another node, so that the agent survives its
 * node: keep fields {@link java.io.Serializable}, mark scratch fields {@code transient}; injected
 * fields are injected again on the new node, never copied. After a failover the agent carries on
 * from its last saved state without {@code onStart}, and messages whose handling the failure cut off
 * are handled again: keep handlers deterministic (same state and message, same sends) and the
 * copies they send again are recognised and dropped by their receivers.
 */
public interface StatefulAgent extends Agent {
}
