package org.siebog.api;

/**
 * Status 504: a device did not answer a new client agent's start in time
 * ({@code siebog.device.start-timeout-ms}). Not the caller's mistake: nothing of the agent is left,
 * its device was told to stop it, and placement leaves that device out for a while
 * ({@code siebog.device.start-backoff-ms}), so trying again goes elsewhere.
 */
public final class StartTimedOutException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a start.
     *
     * @param aid       the agent that was to start
     * @param device    the device that did not answer
     * @param timeoutMs how long it was given
     * @param backoffMs how long placement now leaves it out
     */
    public StartTimedOutException(AID aid, String device, long timeoutMs, long backoffMs) {
        super("device " + device + " did not start agent " + aid + " within " + timeoutMs
                + " ms (siebog.device.start-timeout-ms): nothing was started, and placement leaves that device out for "
                + backoffMs / 1000 + " s (siebog.device.start-backoff-ms); try again");
    }

    /** @return 504 (Gateway Timeout) */
    @Override
    public int status() {
        return 504;
    }
}
