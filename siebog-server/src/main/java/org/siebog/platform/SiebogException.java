package org.siebog.platform;

import jakarta.ejb.ApplicationException;

/**
 * A refusal the caller can act on (bad input, unknown agent, full mailbox). Thrown as is through
 * EJB calls rather than wrapped, and mapped by the REST layer to a status and a readable message.
 */
@ApplicationException(rollback = false, inherited = true)
public abstract class SiebogException extends RuntimeException {

    protected SiebogException(String message) {
        super(message);
    }

    protected SiebogException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The HTTP status this refusal maps to (REST answers, device error frames): 400 unless said otherwise. */
    public int status() {
        return 400;
    }
}
