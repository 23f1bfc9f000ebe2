package org.siebog.perf.senderreceiver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringReader;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;
import org.siebog.examples.senderreceiver.RunResult;

class RunStatusJsonTest {

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void aFinishedRunReadsBackAsItsResult() throws RunFailedException {
        RunResult result = new RunResult(10, 1000, 0.165, 63481.7, 0.099, 0.194);
        assertEquals(result, RunStatusJson.result(json(RunStatusJson.finished(result).toString())));
    }

    @Test
    void readsSiebogsRunStatus() throws RunFailedException {
        JsonObject status = json("""
                {"id":"r","parameters":{"pairs":"10"},"state":"finished","result":{"avgRttMs":0.1656,
                "maxPairRttMs":0.194,"measuredRoundTrips":1000,"minPairRttMs":0.0993,"pairs":10,"roundTripsPerSec":63481.7}}
                """);
        assertEquals(new RunResult(10, 1000, 0.1656, 63481.7, 0.0993, 0.194), RunStatusJson.result(status));
    }

    @Test
    void aFailedRunThrowsItsError() {
        RunFailedException failure = assertThrows(RunFailedException.class,
                () -> RunStatusJson.result(RunStatusJson.failed("JADE ran out of memory (Java heap space)")));
        assertEquals("JADE ran out of memory (Java heap space)", failure.getMessage());
    }

    @Test
    void aResultWithoutItsFiguresIsRejected() {
        assertThrows(RunFailedException.class, () -> RunStatusJson.result(json("{\"state\":\"finished\",\"result\":{\"pairs\":1}}")));
    }

    @Test
    void parametersSurviveTheChildJvmsCommandLine() {
        RunParameters parameters = new RunParameters(4096, 65536, 1000, 200, 300);
        assertEquals(parameters, RunParameters.fromArgs(parameters.toArgs().toArray(String[]::new)));
    }
}
