package org.siebog.api;

/**
 * Status 404: the agent has no service of that name in the directory: it never registered one, it
 * deregistered it, or its lease ran out.
 */
public class UnknownServiceException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal of a change to a service that is not registered.
     *
     * @param agent       the agent named
     * @param serviceName the service named
     */
    public UnknownServiceException(AID agent, String serviceName) {
        super("agent " + agent + " has no service named '" + serviceName + "' in the directory");
    }

    /** @return 404 (Not Found) */
    @Override
    public int status() {
        return 404;
    }
}
