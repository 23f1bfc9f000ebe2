package org.siebog.perf.senderreceiver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;

import org.junit.jupiter.api.Test;

/** The runs' resource is the examples' deployment's, beside the node's Siebog. */
class SiebogRunsTest {

    @Test
    void theExamplesLiveBesideTheNodesSiebog() {
        assertEquals("http://127.0.0.1:8080/siebog-examples", SiebogRuns.examplesOf(URI.create("http://127.0.0.1:8080/siebog")));
        assertEquals("http://node2:8180/siebog-examples", SiebogRuns.examplesOf(URI.create("http://node2:8180/siebog/")));
    }
}
