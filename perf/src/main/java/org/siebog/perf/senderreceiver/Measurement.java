package org.siebog.perf.senderreceiver;

import org.siebog.examples.senderreceiver.RunResult;

/**
 * What one system measured for one configuration.
 *
 * @param system {@value #SIEBOG} or a {@link Reference#system()}
 * @param nodes  how many nodes (a reference: JVMs) the run used
 */
public record Measurement(String system, int nodes, int payloadChars, RunResult result) {

    public static final String SIEBOG = "siebog";

    public int pairs() {
        return result.pairs();
    }
}
