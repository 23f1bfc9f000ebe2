package org.siebog.examples.senderreceiver;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/** Where runs report how they went, for {@code /api/examples/sender-receiver/runs}. */
@ApplicationScoped
public class SenderReceiverRuns {

    /** A run's progress: {@code result} once finished, {@code error} if it failed. */
    public record RunStatus(String id, String state, Map<String, String> parameters, RunResult result, String error) {
    }

    private final Map<String, RunStatus> runs = new ConcurrentHashMap<>();

    public void started(String id, Map<String, String> parameters) {
        runs.put(id, new RunStatus(id, "running", parameters, null, null));
    }

    void finished(String id, RunResult result) {
        runs.computeIfPresent(id, (key, run) -> new RunStatus(id, "finished", run.parameters(), result, null));
    }

    void failed(String id, String error) {
        runs.computeIfPresent(id, (key, run) -> new RunStatus(id, "failed", run.parameters(), null, error));
    }

    public Optional<RunStatus> find(String id) {
        return Optional.ofNullable(runs.get(id));
    }
}
