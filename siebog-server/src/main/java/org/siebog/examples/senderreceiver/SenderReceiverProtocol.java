package org.siebog.examples.senderreceiver;

/** Words of the control conversation between a run's coordinator and its Senders. */
final class SenderReceiverProtocol {

    static final String NAME = "sender-receiver";
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
