package org.siebog.state;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Where detached agents' state lives: one record per AID, with the version it was saved as.
 *
 * <p>The store does not decide which version is next ({@link StateManager} does, cluster-wide);
 * it only keeps the newest: of two writes of one AID the one with the higher version stays,
 * whatever order they arrive in, so a write that reaches the store late can never replace a newer
 * state. All operations are asynchronous; they complete exceptionally with
 * {@link StateStoreException} when the store cannot answer (unreachable, timed out, overloaded).
 */
public interface StateStore extends AutoCloseable {

    /** The agent's state and its version, or empty when none was ever written. */
    CompletionStage<Optional<StoredState>> read(String aid);

    /**
     * Writes {@code state} as {@code version}; a {@code null} state clears it (the version stays).
     *
     * @param device the device writing, or null for a server-side writer
     */
    CompletionStage<Void> write(String aid, long version, String state, String device);

    /** A line for people: which store, where, and what it holds. */
    String describe();

    @Override
    void close();
}
