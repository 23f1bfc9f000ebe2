package org.siebog.delivery;

import org.siebog.api.AID;

/**
 * What an agent's context asks when the agent moves itself ({@link org.siebog.api.AgentContext#moveTo}):
 * declared here, beside the contexts, and implemented by the agent lifecycle, which moves agents.
 */
public interface AgentMoves {

    /**
     * Checks the move now (the node exists and is not this one, the agent is stateful and here),
     * then moves the agent once its current call has returned.
     *
     * @throws org.siebog.api.SiebogException the move cannot be made (400), or the agent is moving already (409)
     */
    void moveSoon(AID aid, String node);
}
