package org.siebog.api;

/**
 * Status 409: a start asked for a name that a running agent already has. Nothing was started;
 * choose another name, or stop the other agent first.
 */
public class AgentNameInUseException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a start.
     *
     * @param aid the name asked for
     */
    public AgentNameInUseException(AID aid) {
        super("an agent named " + aid + " is already running");
    }

    /** @return 409 (Conflict) */
    @Override
    public int status() {
        return 409;
    }
}
