package org.siebog.perf.senderreceiver;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.siebog.examples.senderreceiver.RunResult;

/**
 * The status of a run as JSON, in the shape of Siebog's {@code GET .../sender-receiver/runs/{id}}:
 * {@code {"state": "finished", "result": {...}}} or {@code {"state": "failed", "error": "..."}}.
 * The JADE child JVM prints the same shape, so both systems' results are read by one parser.
 */
public final class RunStatusJson {

    public static final String RUNNING = "running";
    private static final String FINISHED = "finished";
    private static final String FAILED = "failed";

    private RunStatusJson() {
    }

    public static JsonObject finished(RunResult result) {
        return Json.createObjectBuilder()
                .add("state", FINISHED)
                .add("result", Json.createObjectBuilder()
                        .add("pairs", result.pairs())
                        .add("measuredRoundTrips", result.measuredRoundTrips())
                        .add("avgRttMs", result.avgRttMs())
                        .add("roundTripsPerSec", result.roundTripsPerSec())
                        .add("minPairRttMs", result.minPairRttMs())
                        .add("maxPairRttMs", result.maxPairRttMs()))
                .build();
    }

    public static JsonObject failed(String error) {
        return Json.createObjectBuilder().add("state", FAILED).add("error", error).build();
    }

    /** The result of a run that has ended; a failed run becomes the exception, with its error. */
    public static RunResult result(JsonObject status) throws RunFailedException {
        String state = status.getString("state", "");
        if (FAILED.equals(state)) {
            throw new RunFailedException(status.getString("error", "the run failed without saying why"));
        }
        if (!FINISHED.equals(state) || !(status.get("result") instanceof JsonObject result)) {
            throw new RunFailedException("unexpected run status " + status);
        }
        try {
            return new RunResult(result.getInt("pairs"),
                    result.getJsonNumber("measuredRoundTrips").longValueExact(),
                    result.getJsonNumber("avgRttMs").doubleValue(),
                    result.getJsonNumber("roundTripsPerSec").doubleValue(),
                    result.getJsonNumber("minPairRttMs").doubleValue(),
                    result.getJsonNumber("maxPairRttMs").doubleValue());
        } catch (NullPointerException | ClassCastException | ArithmeticException e) {
            throw new RunFailedException("malformed run result " + result);
        }
    }
}
