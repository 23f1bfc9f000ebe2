package org.siebog.device;

import org.siebog.platform.SiebogException;

/** A client agent needs a device, and none is joined. */
public class NoDeviceException extends SiebogException {

    public NoDeviceException(String agentClass) {
        super("no device is joined to run client agent class " + agentClass
                + "; open the host page (/siebog/) in a browser to add one");
    }

    private NoDeviceException(String message, boolean unused) {
        super(message);
    }

    /** Devices are joined, but every one missed a start deadline lately and is left out for now. */
    static NoDeviceException allSkipped(String agentClass, int joined) {
        return new NoDeviceException("none of the " + joined + " joined devices may take client agent class " + agentClass
                + " now: each missed a start deadline and is left out for a while (siebog.device.start-backoff-ms); try again later",
                true);
    }

    @Override
    public int status() {
        return 503;
    }
}
