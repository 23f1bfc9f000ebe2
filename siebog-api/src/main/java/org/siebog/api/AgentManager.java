package org.siebog.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts, stops and finds agents anywhere in the cluster, and lists the agent classes that
 * deployments provide. What {@code /siebog/api/agents} does over HTTP, for Java code: an agent that
 * starts helpers, a REST resource of another deployment.
 *
 * <p>Inject it with {@code @EJB(lookup = AgentManager.JNDI_NAME) AgentManager agents;} (in an agent,
 * make the field {@code transient}: injected fields are not state). Thread-safe. Starting and
 * stopping wait for the agent's {@code onStart} or {@code onStop}, which may run on another node.
 *
 * <pre>{@code
 * AgentInfo ant = agents.start("TspAnt", "ant-1", Map.of("colony", aid().toString()));
 * send(ACLMessage.builder(Performative.REQUEST).receiver(ant.aid()).content("round 1"));
 * }</pre>
 */
public interface AgentManager {

    /** Where the AgentManager is bound, for beans in other deployments to look it up. */
    String JNDI_NAME = "java:global/siebog/siebog-server/AgentManagerBean!org.siebog.api.AgentManager";

    /**
     * Starts an agent of {@code agentClass} named {@code name} (the local part of its AID) where the
     * platform places it, and returns once its {@code onStart} has run.
     *
     * @param agentClass the name of an agent class, as {@link #agentClasses()} lists it
     * @param name       the new agent's name, unique in the platform
     * @param args       its start arguments, handed to its {@code onStart}
     * @return the running agent
     * @throws UnknownAgentClassException   no deployment provides {@code agentClass}
     * @throws InvalidAgentRequestException the name is not a valid AID name, or {@code onStart} failed
     * @throws AgentNameInUseException      an agent of that name is running
     * @throws NoDeviceException            a client agent, and no device may take it
     * @throws StartTimedOutException       a client agent, and its device did not start it in time
     */
    AgentInfo start(String agentClass, String name, Map<String, String> args);

    /**
     * Starts an agent on {@code node} ({@code null}: wherever the placement selector puts it). A
     * stateless agent started on a named node is pinned there: every message to it is handled
     * there instead of being balanced over the nodes.
     *
     * @param agentClass the name of an agent class
     * @param name       the new agent's name, unique in the platform
     * @param args       its start arguments
     * @param node       the node to run it on ({@link ConnectionManager#nodes()}), or null
     * @return the running agent
     * @throws InvalidAgentRequestException also when {@code node} is not a member of the cluster
     * @throws SiebogException              what {@link #start(String, String, Map)} throws
     */
    AgentInfo start(String agentClass, String name, Map<String, String> args, String node);

    /**
     * Starts an agent at a chosen place: a server agent on {@code node}, a client agent on
     * {@code device} ({@code null}: wherever the compute-unit balancer puts it). Each kind takes
     * only its own kind of place.
     *
     * @param agentClass the name of an agent class
     * @param name       the new agent's name, unique in the platform
     * @param args       its start arguments
     * @param node       for a server agent, the node to run it on, or null
     * @param device     for a client agent, the id of the device to run it on, or null
     * @return the running agent
     * @throws InvalidAgentRequestException also when the place does not fit the class, or there is no such device
     * @throws NoDeviceException            a client agent, and no device is joined (or none may take it now)
     * @throws SiebogException              what {@link #start(String, String, Map)} throws
     */
    AgentInfo start(String agentClass, String name, Map<String, String> args, String node, String device);

    /**
     * Stops an agent: it takes no new messages, handles those already admitted, then its
     * {@code onStop} runs and its name is free again.
     *
     * @param aid the agent
     * @throws UnknownAgentException no such agent
     */
    void stop(AID aid);

    /**
     * Moves a stateful agent to another node and returns once it is there: it finishes the message
     * in hand, then carries on on {@code node} from its state, and handles every message sent to it
     * in each sender's order, none lost and none twice (see {@link AgentContext#moveTo(String)}).
     *
     * @param aid  the agent
     * @param node the node to move it to ({@link ConnectionManager#nodes()})
     * @return the agent where it runs now
     * @throws UnknownAgentException        no such agent
     * @throws InvalidAgentRequestException {@code node} is not a member of the cluster or is the
     *                                      agent's node already, or the agent is not stateful
     * @throws RemoteNodeException          {@code node} could not take it (the agent stays where it was)
     * @throws SiebogException              the agent is moving already (409)
     */
    AgentInfo move(AID aid, String node);

    /**
     * Moves a client agent to another device through its saved state, and returns once it has
     * started there: its device stops it (without its {@code onStop}: it has not stopped, it has
     * moved), and {@code device} starts it from the state it last saved, as after the loss of its
     * device. The messages it had not acknowledged, and those sent to it meanwhile, reach it there
     * in order. What it had not saved stays behind: save before moving.
     *
     * @param aid    the client agent
     * @param device the id of a joined device, or null for one the compute-unit balancer picks
     *               (never the one it is on)
     * @return the agent where it runs now
     * @throws UnknownAgentException        no such agent
     * @throws InvalidAgentRequestException not a client agent, no such device, or the device it is on
     * @throws NoDeviceException            {@code device} is null and no other device may take it
     * @throws SiebogException              the agent is moving already, or waits for a device (409); the
     *                                      device did not start it in time (504: it then goes to another,
     *                                      as after a lost device)
     */
    AgentInfo moveToDevice(AID aid, String device);

    /**
     * Looks an agent up.
     *
     * @param aid the agent
     * @return where it runs and of which class, or empty when no such agent runs
     */
    Optional<AgentInfo> find(AID aid);

    /**
     * The agents running in the cluster now.
     *
     * @return one entry per agent (a balanced stateless agent once)
     */
    List<AgentInfo> agents();

    /**
     * The agent classes the deployments on the nodes provide now: every session bean implementing
     * {@link StatefulAgent} or {@link StatelessAgent}, and the client agent modules.
     *
     * @return the classes, sorted by name
     */
    List<AgentClassInfo> agentClasses();
}
