package org.siebog.device;

import org.siebog.agent.AID;
import org.siebog.platform.SiebogException;

/**
 * A device did not answer a new agent's {@code start} in time: a 504 (the device is the upstream
 * that did not answer), not the caller's mistake. Nothing of the agent is left; its device was told
 * to stop it and placement skips that device for a while, so trying again goes elsewhere.
 */
public final class StartTimedOutException extends SiebogException {

    StartTimedOutException(AID aid, String device, StartDeadline deadline) {
        super("device " + device + " did not start agent " + aid + " within " + deadline.timeoutMs()
                + " ms (siebog.device.start-timeout-ms): nothing was started, and placement leaves that device out for "
                + deadline.backoffMs() / 1000 + " s (siebog.device.start-backoff-ms); try again");
    }

    @Override
    public int status() {
        return 504;
    }
}
