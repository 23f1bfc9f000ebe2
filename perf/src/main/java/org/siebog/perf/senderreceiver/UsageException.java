package org.siebog.perf.senderreceiver;

/** A bad command line: the message says which flag and why. */
public class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
