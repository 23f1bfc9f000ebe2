package org.siebog.message;

import org.siebog.agent.AID;
import org.siebog.platform.SiebogException;

/**
 * The receiver's node holds as much as it may of messages to its stateful agents that no saved
 * state covers yet ({@code siebog.replication.max-log-bytes}); the message was not admitted. The
 * agents are saving to release them: retry shortly.
 */
public class BacklogFullException extends SiebogException {

    public BacklogFullException(AID receiver) {
        super("the node of " + receiver + " holds as many unsaved messages as it may (siebog.replication.max-log-bytes);"
                + " nothing was delivered, try again shortly");
    }

    @Override
    public int status() {
        return 503;
    }
}
