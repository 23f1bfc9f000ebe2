package org.siebog.rest;

import org.siebog.api.AID;
import org.siebog.api.SiebogException;

/** A caller who is not an admin named a {@code sender}: only admins may speak in an agent's name. 403. */
class SenderNotAllowedException extends SiebogException {

    SenderNotAllowedException(AID sender) {
        super("only siebog-admin may post a message with a sender (" + sender
                + "); leave 'sender' out to post in no agent's name");
    }

    @Override
    public int status() {
        return 403;
    }
}
