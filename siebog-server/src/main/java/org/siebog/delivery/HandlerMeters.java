package org.siebog.delivery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;

/**
 * What every mailbox of the node counts as it hands messages to its agent: {@code delivered}, each
 * message, and {@code handled}, the handler time of a sample of them (see {@link Mailbox}).
 */
public record HandlerMeters(Counter delivered, Timer handled) {

    /**
     * One message in this many is timed, per mailbox: the first, then every eighth. Timing every
     * message (two clock reads and a histogram update each) cost a measurable share of a node
     * that handles a hundred thousand short messages a second; a sample shows the same spread.
     */
    public static final int SAMPLE_EVERY = 8;
}
