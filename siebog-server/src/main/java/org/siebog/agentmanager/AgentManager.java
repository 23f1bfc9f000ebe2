package org.siebog.agentmanager;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.siebog.agent.AID;
import org.siebog.agent.AgentClass;
import org.siebog.agent.AgentInfo;

/** Starts, stops and finds agents; lists the agent classes that deployments provide. */
public interface AgentManager {

    String JNDI_NAME = "java:global/siebog/siebog-server/AgentManagerBean!org.siebog.agentmanager.AgentManager";

    /**
     * Starts an agent of {@code agentClass} named {@code name} (the local part of its AID) and
     * returns once its {@code onStart} has run.
     *
     * @throws UnknownAgentClassException   no deployment provides {@code agentClass}
     * @throws InvalidAgentRequestException the name is not a valid AID name, or {@code onStart} failed
     * @throws AgentNameInUseException      an agent of that name is running
     */
    AgentInfo start(String agentClass, String name, Map<String, String> args);

    /**
     * Starts an agent on {@code node} ({@code null}: wherever the placement selector puts it). A
     * stateless agent started on a named node is pinned there: every message to it is handled
     * there instead of being balanced over the nodes.
     *
     * @throws InvalidAgentRequestException also when {@code node} is not a member of the cluster
     */
    AgentInfo start(String agentClass, String name, Map<String, String> args, String node);

    /**
     * Starts an agent at a chosen place: a server agent on {@code node}, a client agent on
     * {@code device} ({@code null}: wherever the compute-unit balancer puts it). Each kind takes
     * only its own kind of place.
     *
     * @throws InvalidAgentRequestException also when the place does not fit the class, or there is no such device
     * @throws org.siebog.device.NoDeviceException a client agent, and no device is joined
     */
    AgentInfo start(String agentClass, String name, Map<String, String> args, String node, String device);

    /**
     * Stops an agent: it takes no new messages, handles those already admitted, then its
     * {@code onStop} runs.
     *
     * @throws UnknownAgentException no such agent
     */
    void stop(AID aid);

    Optional<AgentInfo> find(AID aid);

    List<AgentInfo> agents();

    List<AgentClass> agentClasses();
}
