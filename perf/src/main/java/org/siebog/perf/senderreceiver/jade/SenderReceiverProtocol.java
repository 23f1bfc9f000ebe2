package org.siebog.perf.senderreceiver.jade;

/**
 * Words of the control conversation between a run's coordinator and its Senders: the same as
 * Siebog's (package-private) {@code org.siebog.examples.senderreceiver.SenderReceiverProtocol}.
 */
final class SenderReceiverProtocol {

    static final String PROTOCOL = "sender-receiver";
    static final String START = "start";
    static final String MEASURE = "measure";
    static final String STOP = "stop";
    static final String WARMED_UP = "warmed-up";
    static final String MEASURED = "measured";
    static final String COUNT = "count";
    static final String RTT_NANOS = "rttNanos";
    static final String WINDOW_NANOS = "windowNanos";

    private SenderReceiverProtocol() {
    }
}
