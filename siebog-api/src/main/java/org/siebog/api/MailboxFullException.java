package org.siebog.api;

/**
 * Status 503: the receiver's mailbox holds as many messages as it may
 * ({@code siebog.mailbox.capacity}); the message was not admitted, to that receiver or any other.
 * The receiver is behind: slow down, or try again later (the REST API adds {@code Retry-After}).
 */
public class MailboxFullException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a message.
     *
     * @param receiver the receiver whose mailbox is full
     * @param capacity the messages its mailbox holds
     */
    public MailboxFullException(AID receiver, int capacity) {
        super("the mailbox of " + receiver + " is full (" + capacity + " messages waiting); nothing was delivered, try again later");
    }

    private MailboxFullException(String message) {
        super(message);
    }

    /**
     * For the platform: this refusal as the receiver's node worded it (refusals cross the cluster as
     * a kind, a status and a text).
     *
     * @param message the other node's text
     * @return the refusal
     */
    public static MailboxFullException asReported(String message) {
        return new MailboxFullException(message);
    }

    /** @return 503 (Service Unavailable) */
    @Override
    public int status() {
        return 503;
    }
}
