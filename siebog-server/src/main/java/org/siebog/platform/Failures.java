package org.siebog.platform;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;

/**
 * Failures unwrapped in one place: a {@code CompletableFuture} wraps what failed in a
 * {@link CompletionException} (or, through {@code get}, an {@link ExecutionException}), the EJB
 * container wraps what a bean throws (an {@code EJBException}, itself perhaps around a reflective
 * call's), and a refusal must reach its caller as itself, with its status.
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

    /**
     * Waits for a write that every node must have (a replicated cache's) and returns its result; its
     * failure is thrown as the refusal it carries, or a 503 saying that {@code what} could not be
     * written on every node.
     */
    public static <T> T written(CompletableFuture<T> write, String what) {
        try {
            return write.join();
        } catch (CompletionException failed) {
            throw refusal(failed, cause -> new RemoteNodeException(what + " could not be written on every node: " + cause));
        }
    }

    /** The first {@code type} in {@code failure}'s cause chain, {@code failure} included; null if there is none. */
    public static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    /** The message of the innermost cause, or its string form when it has none: what a person is told went wrong. */
    public static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.toString();
    }
}
