package org.siebog.api;

/**
 * Status 404: an AID that names no running agent: it never ran, or it has stopped. For a message,
 * no receiver got it.
 */
public class UnknownAgentException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a message or a request about an agent.
     *
     * @param aid the AID asked for
     */
    public UnknownAgentException(AID aid) {
        super("no agent " + aid + " on this platform");
    }

    private UnknownAgentException(String message) {
        super(message);
    }

    /**
     * For the platform: this refusal as the agent's node worded it (refusals cross the cluster as a
     * kind, a status and a text).
     *
     * @param message the other node's text
     * @return the refusal
     */
    public static UnknownAgentException asReported(String message) {
        return new UnknownAgentException(message);
    }

    /** @return 404 (Not Found) */
    @Override
    public int status() {
        return 404;
    }
}
