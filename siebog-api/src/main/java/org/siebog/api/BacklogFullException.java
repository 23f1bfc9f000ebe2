package org.siebog.api;

/**
 * Status 503: the receiver's node holds as much as it may of messages to its stateful agents that
 * no saved state covers yet ({@code siebog.replication.max-log-bytes}); the message was not
 * admitted. The agents are saving to release them: try again shortly.
 */
public class BacklogFullException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a message.
     *
     * @param receiver the receiver whose node refused it
     */
    public BacklogFullException(AID receiver) {
        super("the node of " + receiver + " holds as many unsaved messages as it may (siebog.replication.max-log-bytes);"
                + " nothing was delivered, try again shortly");
    }

    /** @return 503 (Service Unavailable) */
    @Override
    public int status() {
        return 503;
    }
}
