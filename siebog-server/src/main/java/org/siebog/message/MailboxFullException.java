package org.siebog.message;

import org.siebog.agent.AID;
import org.siebog.platform.SiebogException;

/** The receiver's mailbox is at capacity; the message was not admitted. Retry later or slow down. */
public class MailboxFullException extends SiebogException {

    public MailboxFullException(AID receiver, int capacity) {
        super("the mailbox of " + receiver + " is full (" + capacity + " messages waiting); nothing was delivered, try again later");
    }

    private MailboxFullException(String message) {
        super(message);
    }

    /** The refusal as another node worded it (refusals cross the cluster as a kind and a text, see {@code Refusal}). */
    public static MailboxFullException asReported(String message) {
        return new MailboxFullException(message);
    }

    @Override
    public int status() {
        return 503;
    }
}
