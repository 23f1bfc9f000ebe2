package org.siebog.api;

/**
 * Status 503: another node could not do what was asked: it left the cluster, did not answer in
 * time, or failed unexpectedly. The caller may try again: an agent on a node that died is taken over
 * by a survivor within seconds.
 */
public class RemoteNodeException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * A node that could not be reached.
     *
     * @param node the node's name
     * @param why  what went wrong, for a person
     */
    public RemoteNodeException(String node, String why) {
        super("node " + node + " could not be reached: " + why);
    }

    /**
     * A refusal that says it all.
     *
     * @param what what went wrong, for a person
     */
    public RemoteNodeException(String what) {
        super(what);
    }

    /** @return 503 (Service Unavailable) */
    @Override
    public int status() {
        return 503;
    }
}
