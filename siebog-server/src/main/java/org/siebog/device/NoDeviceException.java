package org.siebog.device;

import org.siebog.platform.SiebogException;

/** A client agent needs a device, and none is joined. */
public class NoDeviceException extends SiebogException {

    public NoDeviceException(String agentClass) {
        super("no device is joined to run client agent class " + agentClass
                + "; open the host page (/siebog/) in a browser to add one");
    }

    @Override
    public int status() {
        return 503;
    }
}
