package org.siebog.api;

/**
 * Status 503: a client (JavaScript) agent needs a browser device to run on, and none may take it:
 * none is joined, or every joined one missed a start deadline lately and is left out for a while.
 * Nothing was started; try again once a device has joined (opening the host page {@code /siebog/} in
 * a browser adds one).
 */
public class NoDeviceException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a start: no device is joined.
     *
     * @param agentClass the client agent class asked for
     */
    public NoDeviceException(String agentClass) {
        super("no device is joined to run client agent class " + agentClass
                + "; open the host page (/siebog/) in a browser to add one");
    }

    private NoDeviceException(String message, boolean unused) {
        super(message);
    }

    /**
     * For the platform: devices are joined, but every one missed a start deadline lately and is left
     * out for now.
     *
     * @param agentClass the client agent class asked for
     * @param joined     the devices joined
     * @return the refusal
     */
    public static NoDeviceException allSkipped(String agentClass, int joined) {
        return new NoDeviceException("none of the " + joined + " joined devices may take client agent class " + agentClass
                + " now: each missed a start deadline and is left out for a while (siebog.device.start-backoff-ms); try again later",
                true);
    }

    /** @return 503 (Service Unavailable) */
    @Override
    public int status() {
        return 503;
    }
}
