package org.siebog.state;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Where detached agents' state lives: one record per AID with a version, written only by
 * compare-and-set so two writers (say, a device that left and the device its agent moved to) can
 * never overwrite each other unnoticed.
 *
 * <p>The rule: a writer that read version {@code v} (0 when there was none) writes {@code v + 1},
 * and the write is accepted only if the stored version is still {@code v}. A refused write changes
 * nothing and reports the version the store holds. All operations are asynchronous; they complete
 * exceptionally with {@link StateStoreException} when the store cannot answer (unreachable, timed
 * out, too many requests in flight).
 */
public interface StateStore extends AutoCloseable {

    /** The agent's state and its version, or empty when none was ever written. */
    CompletionStage<Optional<StoredState>> read(String aid);

    /**
     * Writes {@code state} as version {@code expectedVersion + 1} if the stored version is
     * {@code expectedVersion} ({@code 0}: only if there is no record yet).
     *
     * @param device the device writing, or null for a server-side writer
     */
    CompletionStage<WriteResult> write(String aid, long expectedVersion, String state, String device);

    /** Removes the agent's state (when the agent is stopped for good). */
    CompletionStage<Void> delete(String aid);

    /** A line for people: which store, where, and what it holds. */
    String describe();

    @Override
    void close();
}
