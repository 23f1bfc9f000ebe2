/**
 * Siebog's API for agent developers: everything an agent, or code that drives agents, compiles
 * against. Nothing else of Siebog is needed at compile time, and nothing here depends on how the
 * platform is built.
 *
 * <h2>Agents</h2>
 *
 * An agent is a session bean that extends {@link org.siebog.api.AbstractAgent} and implements
 * one of the two kinds, {@link org.siebog.api.StatefulAgent} ({@code @Stateful}: one instance
 * per agent, its fields kept and replicated) or {@link org.siebog.api.StatelessAgent}
 * ({@code @Stateless}: pooled, balanced over the nodes per message). Deploy it and its class is
 * found; start agents of it by name through the {@link org.siebog.api.AgentManager} or
 * {@code POST /siebog/api/agents}.
 *
 * <pre>{@code
 * import jakarta.ejb.Stateful;
 *
 * import org.siebog.api.ACLMessage;
 * import org.siebog.api.AbstractAgent;
 * import org.siebog.api.Performative;
 * import org.siebog.api.StatefulAgent;
 *
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
 * <h2>Guarantees</h2>
 *
 * <ul>
 * <li>An agent handles one message at a time, in the order its mailbox admitted them, on one of
 *     the node's shared threads: no synchronisation is needed inside an agent, and a handler must
 *     not block for long or start threads.</li>
 * <li>A send either is admitted by every receiver or refused with a {@link org.siebog.api.SiebogException};
 *     an admitted message is handled, also across the failover of a stateful receiver's node.</li>
 * <li>An {@link org.siebog.api.AID} names an agent wherever it runs: it does not change when the
 *     agent moves or fails over.</li>
 * </ul>
 *
 * <h2>Refusals</h2>
 *
 * Everything the platform refuses is a {@link org.siebog.api.SiebogException}, an unchecked EJB
 * application exception that carries the HTTP status the REST API answers with
 * ({@link org.siebog.api.SiebogException#status()}); its subclasses here are the refusals callers
 * tell apart by type.
 */
package org.siebog.api;
