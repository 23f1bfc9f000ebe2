package org.siebog.agent;

/**
 * The business interface of a {@code @Stateful} agent: one bean instance per agent, keeping its
 * fields from message to message.
 *
 * <pre>{@code
 * @Stateful
 * public class Counter extends AbstractAgent implements StatefulAgent {
 *     private int count;
 *     protected void onMessage(ACLMessage msg) {
 *         send(reply(msg, Performative.INFORM).content(Integer.toString(++count)));
 *     }
 * }
 * }</pre>
 */
public interface StatefulAgent extends Agent {
}
