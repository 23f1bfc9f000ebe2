package org.siebog.perf.senderreceiver.jade;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.siebog.examples.senderreceiver.RunResult;

/** How the run ended, handed from the agents (any of which may fail it) to the child's main thread. */
final class RunOutcome {

    private final CompletableFuture<RunResult> result = new CompletableFuture<>();

    void finished(RunResult runResult) {
        result.complete(runResult);
    }

    void failed(Throwable cause) {
        result.completeExceptionally(cause);
    }

    /** Waits for the end; a failure is rethrown as it was, so an OutOfMemoryError stays one. */
    RunResult await() throws Exception {
        try {
            return result.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw (Exception) e.getCause();
        }
    }
}
