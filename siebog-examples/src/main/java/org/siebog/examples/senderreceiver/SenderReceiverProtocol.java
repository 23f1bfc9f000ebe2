package org.siebog.examples.senderreceiver;

/** Words of the control conversation between a run's coordinator and its Senders (also spoken by the JADE peer in perf/). */
public final class SenderReceiverProtocol {

    public static final String NAME = "sender-receiver";
    public static final String START = "start";
    public static final String MEASURE = "measure";
    public static final String STOP = "stop";
    public static final String WARMED_UP = "warmed-up";
    public static final String MEASURED = "measured";
    public static final String COUNT = "count";
    public static final String RTT_NANOS = "rttNanos";
    public static final String WINDOW_START_NANOS = "windowStartNanos";
    public static final String WINDOW_NANOS = "windowNanos";

    private SenderReceiverProtocol() {
    }
}
