package org.siebog.api;

/**
 * Status 413: a message over one of the platform's size limits: its content
 * ({@code siebog.message.max-content-chars}) or everything else together
 * ({@code siebog.message.max-envelope-chars}, see {@link ACLMessage#envelopeChars()}). Nothing was
 * delivered; send less, or in parts.
 */
public class MessageTooLargeException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a message.
     *
     * @param what  the part over its limit, for a person ("the content")
     * @param size  its size
     * @param limit the limit
     */
    public MessageTooLargeException(String what, long size, long limit) {
        super(what + " is over the limit: " + size + " > " + limit + "; nothing was delivered");
    }

    /** @return 413 (Content Too Large) */
    @Override
    public int status() {
        return 413;
    }
}
