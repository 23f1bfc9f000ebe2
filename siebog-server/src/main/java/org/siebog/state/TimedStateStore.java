package org.siebog.state;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The store, timed: {@code siebog.state.store} by operation ({@code read}, {@code write}) and
 * outcome ({@code ok}, {@code failed}), from the call to the store's answer — Cassandra's latency as
 * the node sees it, driver and network included.
 */
final class TimedStateStore implements StateStore {

    /** Cassandra answers in a millisecond or two when well; a timeout takes seconds. */
    private static final Duration[] BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(2),
            Duration.ofSeconds(10)};

    private final StateStore store;
    private final MeterRegistry meters;

    TimedStateStore(StateStore store, MeterRegistry meters) {
        this.store = store;
        this.meters = meters;
    }

    @Override
    public CompletionStage<Optional<StoredState>> read(String aid) {
        Timer.Sample began = Timer.start(meters);
        return timed("read", began, store.read(aid));
    }

    @Override
    public CompletionStage<Void> write(String aid, long version, String state, String device) {
        Timer.Sample began = Timer.start(meters);
        return timed("write", began, store.write(aid, version, state, device));
    }

    private <T> CompletionStage<T> timed(String op, Timer.Sample began, CompletionStage<T> answer) {
        return answer.whenComplete((ok, failed) -> began.stop(Timer.builder("siebog.state.store")
                .description("Requests to the state store (Cassandra), by operation and outcome")
                .tags("op", op, "outcome", failed == null ? "ok" : "failed")
                .serviceLevelObjectives(BUCKETS)
                .register(meters)));
    }

    @Override
    public String describe() {
        return store.describe();
    }

    @Override
    public void close() {
        store.close();
    }
}
