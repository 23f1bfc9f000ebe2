package org.siebog.platform;

/**
 * Fired (a CDI event) once this node has taken its copies of the cluster's caches again after it
 * dropped them: it merged back with a side of a split that went on without it (cluster's
 * {@code LocalCopies} says why). A listener registered on one of those caches went with the old copy,
 * and whatever was built from it is stale: each owner registers its listener again and rebuilds.
 */
public record CopiesRetaken() {
}
