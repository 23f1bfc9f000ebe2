package org.siebog.state;

/** The state store could not do what was asked: not configured, unreachable, overloaded, or a bad request. */
public class StateStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StateStoreException(String message) {
        super(message);
    }

    public StateStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
