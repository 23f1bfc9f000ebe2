package org.siebog.cluster;

import org.siebog.platform.SiebogException;

/**
 * Another node could not do what was asked: it left the cluster, did not answer in time, or failed
 * unexpectedly. The caller may retry; a REST client gets 503.
 */
public class RemoteNodeException extends SiebogException {

    public RemoteNodeException(String node, String why) {
        super("node " + node + " could not be reached: " + why);
    }

    public RemoteNodeException(String what) {
        super(what);
    }

    @Override
    public int status() {
        return 503;
    }
}
