package org.siebog.cluster;

import java.util.function.Consumer;

/** How a node serves the deliveries that come over the other nodes' links ({@link LinkServer}). */
@FunctionalInterface
public interface LinkDeliveries {

    /** Admits the request's messages in order and answers once, through {@code answer}, with one outcome per message. */
    void deliver(NodeOp.Deliver request, Consumer<byte[]> answer);
}
