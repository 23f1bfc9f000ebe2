package org.siebog.device;

import org.siebog.agent.AID;
import org.siebog.platform.SiebogException;

/** A device spoke for an agent it does not host. */
public class NotYourAgentException extends SiebogException {

    public NotYourAgentException(String device, AID aid) {
        super("device " + device + " does not host " + aid + "; a device may act only for its own agents");
    }

    @Override
    public int status() {
        return 403;
    }
}
