package org.siebog.message;

import org.siebog.platform.SiebogException;

/** A message (or its JSON) that breaks the ACL contract; nothing was sent. */
public class MalformedMessageException extends SiebogException {

    public MalformedMessageException(String message) {
        super(message);
    }

    public MalformedMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
