package org.siebog.perf.senderreceiver;

import org.siebog.examples.senderreceiver.RunResult;

/**
 * What one system measured for one configuration.
 *
 * @param system {@code siebog} or {@code jade}
 * @param nodes  how many nodes (JADE: containers) the run used
 */
public record Measurement(String system, int nodes, int payloadChars, RunResult result) {

    public static final String SIEBOG = "siebog";
    public static final String JADE = "jade";

    public int pairs() {
        return result.pairs();
    }
}
