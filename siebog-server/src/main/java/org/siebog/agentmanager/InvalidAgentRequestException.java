package org.siebog.agentmanager;

import org.siebog.platform.SiebogException;

/** A start request that cannot be carried out as given: a bad name, bad arguments, or a start that failed. */
public class InvalidAgentRequestException extends SiebogException {

    public InvalidAgentRequestException(String message) {
        super(message);
    }

    public InvalidAgentRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
