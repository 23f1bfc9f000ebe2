package org.siebog.api;

/**
 * Status 400: a message (or its JSON) that breaks the ACL contract: no receivers or too many, an
 * unknown field or performative, a field of the wrong type, a delay out of range. Nothing was sent;
 * the text names what is wrong.
 */
public class MalformedMessageException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * A refusal that says why.
     *
     * @param message what is wrong with the message, for a person
     */
    public MalformedMessageException(String message) {
        super(message);
    }

    /**
     * A refusal that says why, and the failure behind it.
     *
     * @param message what is wrong with the message, for a person
     * @param cause   the failure that led to it (say, the JSON parser's)
     */
    public MalformedMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
