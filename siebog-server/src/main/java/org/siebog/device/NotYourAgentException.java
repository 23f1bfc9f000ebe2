package org.siebog.device;

import org.siebog.api.AID;
import org.siebog.api.SiebogException;

/** A device spoke for an agent it does not host. */
class NotYourAgentException extends SiebogException {

    public NotYourAgentException(String device, AID aid) {
        super("device " + device + " does not host " + aid + "; a device may act only for its own agents");
    }

    @Override
    public int status() {
        return 403;
    }
}
