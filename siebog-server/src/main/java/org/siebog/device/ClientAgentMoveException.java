package org.siebog.device;

import org.siebog.api.SiebogException;

/** A client agent's move that cannot happen now (409), or whose new device did not start it in time (504). */
class ClientAgentMoveException extends SiebogException {

    private static final long serialVersionUID = 1L;

    private final int status;

    ClientAgentMoveException(int status, String message) {
        super(message);
        this.status = status;
    }

    @Override
    public int status() {
        return status;
    }
}
