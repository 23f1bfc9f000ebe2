package org.siebog.message;

import org.siebog.platform.SiebogException;

/** A message over the platform's size limit; nothing was delivered. */
public class MessageTooLargeException extends SiebogException {

    public MessageTooLargeException(String what, long size, long limit) {
        super(what + " is over the limit: " + size + " > " + limit + "; nothing was delivered");
    }

    @Override
    public int status() {
        return 413;
    }
}
