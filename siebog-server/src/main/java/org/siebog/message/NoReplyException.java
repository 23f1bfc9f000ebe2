package org.siebog.message;

import java.time.Duration;
import java.util.List;

import org.siebog.agent.AID;
import org.siebog.platform.SiebogException;

/** A question was delivered but no answer came back in time. */
public class NoReplyException extends SiebogException {

    public NoReplyException(List<AID> askedAgents, Duration timeout) {
        super("no reply from " + askedAgents + " within " + timeout.toMillis() + " ms (the message was delivered)");
    }

    @Override
    public int status() {
        return 504;
    }
}
