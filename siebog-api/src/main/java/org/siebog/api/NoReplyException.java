package org.siebog.api;

import java.time.Duration;
import java.util.List;

/**
 * Status 504: a question ({@link MessageManager#ask}) was delivered, but no answer came back in time.
 * The receivers may still answer later; the answer then finds no one waiting.
 */
public class NoReplyException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The end of a wait.
     *
     * @param askedAgents the receivers of the question
     * @param timeout     how long the caller waited
     */
    public NoReplyException(List<AID> askedAgents, Duration timeout) {
        super("no reply from " + askedAgents + " within " + timeout.toMillis() + " ms (the message was delivered)");
    }

    /** @return 504 (Gateway Timeout) */
    @Override
    public int status() {
        return 504;
    }
}
