package org.siebog.platform;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.siebog.api.SiebogException;

/**
 * Failures out of asynchronous stages, unwrapped in one place: a {@code CompletableFuture} wraps
 * what failed in a {@link CompletionException} (or, through {@code get}, an
 * {@link ExecutionException}), and a refusal must reach its caller as itself, with its status.
 */
public final class Failures {

    private Failures() {
    }

    /** The failure itself, not the {@link CompletionException}s and {@link ExecutionException}s around it. */
    public static Throwable cause(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The refusal that {@code failure} is, unwrapped; anything else made into one by {@code otherwise}. */
    public static SiebogException refusal(Throwable failure, Function<Throwable, ? extends SiebogException> otherwise) {
        Throwable cause = cause(failure);
        return cause instanceof SiebogException refusal ? refusal : otherwise.apply(cause);
    }
}
