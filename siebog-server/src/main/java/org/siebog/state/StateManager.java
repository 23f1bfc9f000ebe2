package org.siebog.state;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.api.AID;
import org.siebog.platform.Failures;

/**
 * Detached agents' state: what an agent starts from, and its saves and reads, under the rule of
 * docs/device-protocol.md ("Agent state"). A save names the version its writer believes current;
 * {@link StateVersions} takes the next version cluster-wide by compare-and-set, and only then is the
 * state written to the store, with that version. Whoever checks that the writer may touch the agent
 * at all (a device, its own agents) does so before calling.
 */
@ApplicationScoped
public class StateManager {

    @Inject
    StateStores stores;

    @Inject
    StateVersions versions;

    @Inject
    MeterRegistry meters;

    /** The store once connected, kept here: through the {@link StateStores} EJB each save would pay its interceptors. */
    private volatile StateStore connected;

    /** Whether a store is configured at all (connected or not). */
    public boolean configured() {
        return stores.configured();
    }

    /**
     * What the agent starts from: {@link SavedState#NONE} without a configured store; otherwise its
     * saved state, failing with a 503 refusal when the store cannot be read (never a stale start).
     */
    public CompletionStage<SavedState> forStart(AID aid) {
        return configured() ? load(aid) : CompletableFuture.completedFuture(SavedState.NONE);
    }

    /** The agent's saved state and current version; a 503 refusal when the store cannot be read. */
    public CompletionStage<SavedState> load(AID aid) {
        String key = aid.toString();
        return store().thenCompose(store -> store.read(key))
                .thenCompose(stored -> versions.learn(key, stored.map(StoredState::version).orElse(0L))
                        .thenApply(version -> new SavedState(version, stored.map(StoredState::state).orElse(null))))
                .exceptionallyCompose(e -> CompletableFuture.failedFuture(Failures.cause(e) instanceof StateRefusedException refused
                        ? refused : StateRefusedException.unavailable(aid, null, e)));
    }

    /**
     * Saves {@code state} (JSON text) if the agent's version is still {@code expected}; completes
     * with the new version once the store acknowledged the write. Fails with a 409 refusal when
     * another save got there first, and with a 503 one carrying the version now current when the
     * store failed after the version was taken (the write may or may not have landed; the next save
     * names that version, and being higher it replaces whatever did).
     */
    public CompletionStage<Long> save(AID aid, long expected, String state, String device) {
        return store().exceptionallyCompose(none -> CompletableFuture.failedFuture(
                StateRefusedException.unavailable(aid, expected, none))).thenCompose(store -> save(store, aid, expected, state, device));
    }

    /**
     * Tries the compare-and-set first (one cache operation on the hot path); only when it fails does
     * it find out why: the version is not known here yet (learn it, then try again) or it moved on.
     */
    private CompletionStage<Long> save(StateStore store, AID aid, long expected, String state, String device) {
        String key = aid.toString();
        return versions.advance(key, expected).thenCompose(advanced -> {
            if (advanced) {
                return write(store, aid, expected + 1, state, device);
            }
            return versions.cached(key).thenCompose(known -> {
                if (known != null && known != expected) {
                    throw StateRefusedException.conflict(aid, known, expected);
                }
                if (known != null) {
                    return save(store, aid, expected, state, device); // learnt by another request meanwhile
                }
                return load(aid).thenCompose(saved -> {
                    if (saved.version() != expected) {
                        throw StateRefusedException.conflict(aid, saved.version(), expected);
                    }
                    return save(store, aid, expected, state, device);
                });
            });
        });
    }

    private static CompletionStage<Long> write(StateStore store, AID aid, long version, String state, String device) {
        return store.write(aid.toString(), version, state, device).handle((ok, failed) -> {
            if (failed != null) {
                throw StateRefusedException.unavailable(aid, version, failed);
            }
            return version;
        });
    }

    /**
     * The agent is stopped for good: its state is cleared (an empty state at the next version), so
     * a new agent of the same name starts empty. Completes once the store has the empty state;
     * fails when it could not be written (the old state then stays).
     */
    public CompletionStage<Void> clear(AID aid) {
        if (!configured()) {
            return CompletableFuture.completedFuture(null);
        }
        String key = aid.toString();
        return current(aid).thenCompose(version -> {
            if (version == 0) {
                return versions.forget(key, 0).thenApply(forgotten -> null); // it never saved
            }
            long next = version + 1;
            return versions.advance(key, version).thenCompose(advanced -> {
                if (!advanced) {
                    // A save from its device landed while it stopped: clear what is there now.
                    return clear(aid);
                }
                return store().thenCompose(store -> store.write(key, next, null, null))
                        .thenCompose(ok -> versions.forget(key, next))
                        .thenApply(forgotten -> null);
            });
        });
    }

    /** The store, as soon as it is connected (a connected store stays: the driver reconnects by itself). */
    private CompletionStage<StateStore> store() {
        StateStore store = connected;
        return store != null ? CompletableFuture.completedFuture(store)
                : stores.ready().thenApply(ready -> connected = new TimedStateStore(ready, meters));
    }

    /** The agent's version: from the cache, or learnt from the store. */
    private CompletionStage<Long> current(AID aid) {
        return versions.cached(aid.toString())
                .thenCompose(v -> v != null ? CompletableFuture.completedFuture(v) : load(aid).thenApply(SavedState::version));
    }
}
