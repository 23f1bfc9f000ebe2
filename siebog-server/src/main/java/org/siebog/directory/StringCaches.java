package org.siebog.directory;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;

/** Siebog's caches hold only strings and byte arrays, read and written as they are stored. */
public final class StringCaches {

    private StringCaches() {
    }

    /**
     * The cache without WildFly's per-deployment value wrapping: WildFly transcodes a deployment's
     * entries to its own marshalled form depending on the calling thread's deployment context, so
     * an entry written from a container thread pool could not be read from a request thread (and
     * iterating failed with a ClassCastException). Strings and byte arrays need no class loader to travel.
     */
    public static <V> AdvancedCache<String, V> raw(Cache<String, V> injected) {
        return injected.getAdvancedCache().withStorageMediaType();
    }
}
