package org.siebog.state;

import org.siebog.api.AID;
import org.siebog.api.SiebogException;

/**
 * A state request that was not carried out, with the HTTP status it maps to and, where it is
 * known, the agent's state version now (docs/device-protocol.md, "Agent state").
 */
public final class StateRefusedException extends SiebogException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final Long version;

    private StateRefusedException(int status, String message, Long version, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.version = version;
    }

    /** Someone else saved first: the device's version is behind the agent's. */
    public static StateRefusedException conflict(AID aid, long current, long expected) {
        return new StateRefusedException(409, "the state of " + aid + " is at version " + current + ", not " + expected
                + ": another device saved it (the agent may have been started again elsewhere)", current, null);
    }

    /** The store did not answer; the save may or may not have been written, and used up {@code version}. */
    public static StateRefusedException unavailable(AID aid, Long version, Throwable cause) {
        return new StateRefusedException(503, "the state of " + aid + " could not be saved or read: "
                + StateStores.reason(cause), version, cause);
    }

    public static StateRefusedException tooLarge(AID aid, long bytes, int max) {
        return new StateRefusedException(413, "the state of " + aid + " is " + bytes + " bytes of JSON; at most " + max
                + " are kept", null, null);
    }

    public static StateRefusedException tooManyPending(int max) {
        return new StateRefusedException(429, "this device already has " + max
                + " state requests waiting for the store; wait for their answers", null, null);
    }

    @Override
    public int status() {
        return status;
    }

    /** The agent's state version now, or null when the refusal does not say. */
    public Long version() {
        return version;
    }
}
