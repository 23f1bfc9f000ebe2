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
    private final Outcomes reads;
    private final Outcomes writes;

    /** One operation's two timers, made once: a state request is no place to look meters up. */
    private record Outcomes(Timer ok, Timer failed) {

        static Outcomes of(MeterRegistry meters, String op) {
            return new Outcomes(timer(meters, op, "ok"), timer(meters, op, "failed"));
        }

        private static Timer timer(MeterRegistry meters, String op, String outcome) {
            return Timer.builder("siebog.state.store")
                    .description("Requests to the state store (Cassandra), by operation and outcome")
                    .tags("op", op, "outcome", outcome)
                    .serviceLevelObjectives(BUCKETS)
                    .register(meters);
        }
    }

    TimedStateStore(StateStore store, MeterRegistry meters) {
        this.store = store;
        this.meters = meters;
        this.reads = Outcomes.of(meters, "read");
        this.writes = Outcomes.of(meters, "write");
    }

    @Override
    public CompletionStage<Optional<StoredState>> read(String aid) {
        Timer.Sample began = Timer.start(meters);
        return timed(reads, began, store.read(aid));
    }

    @Override
    public CompletionStage<Void> write(String aid, long version, String state, String device) {
        Timer.Sample began = Timer.start(meters);
        return timed(writes, began, store.write(aid, version, state, device));
    }

    private static <T> CompletionStage<T> timed(Outcomes op, Timer.Sample began, CompletionStage<T> answer) {
        return answer.whenComplete((ok, failed) -> began.stop(failed == null ? op.ok() : op.failed()));
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
