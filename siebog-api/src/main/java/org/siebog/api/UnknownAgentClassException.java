package org.siebog.api;

/**
 * Status 400: no deployment provides the agent class asked for. Nothing was started;
 * {@link AgentManager#agentClasses()} (or {@code GET /siebog/api/agent-classes}) lists the deployed ones.
 */
public class UnknownAgentClassException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a start.
     *
     * @param agentClass the class asked for
     */
    public UnknownAgentClassException(String agentClass) {
        super("unknown agent class '" + agentClass + "'; GET /siebog/api/agent-classes lists the deployed ones");
    }
}
