package org.siebog.rest;

import java.util.concurrent.CompletableFuture;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.siebog.api.ACLMessage;
import org.siebog.api.RemoteNodeException;
import org.siebog.delivery.IdentifiedPosts;
import org.siebog.directory.StringCaches;
import org.siebog.platform.Failures;
import org.siebog.platform.Setting;

/**
 * {@code POST /api/messages} with an {@code Idempotency-Key}: however often, and through whichever
 * nodes, a caller posts a message under one key, each stateful receiver handles it once. The first
 * post stores the identities it gives the receivers in the Infinispan cache {@code idempotency-keys}
 * (distributed, siebog.replication.copies owners), under the caller and the key; every post under that key goes under
 * those identities ({@link IdentifiedPosts}), so a receiver that admitted an earlier copy drops it
 * and answers admitted, and one that never got it admits it now.
 *
 * <p>An entry lives as long as a receiver remembers the identities it admitted
 * ({@code siebog.replication.dedupe-horizon-ms}, the cache's lifespan in cluster-profile.cli): after
 * that a post under the key is a new message, as the receiver would take it for one anyway.
 */
@ApplicationScoped
class IdempotentPosts {

    private static final long HORIZON_MS = Setting.DEDUPE_HORIZON_MS.longValue();

    @Inject
    IdentifiedPosts posts;

    /** The posts themselves go from here, not from the cache's threads, which must not wait on anything. */
    @Resource
    ManagedExecutorService workers;

    private AdvancedCache<String, String> cache;

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/idempotency-keys")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
    }

    /**
     * Posts {@code message} under {@code key}: as the key's first post stored it, or, when it is the
     * first, under new identities that it stores.
     *
     * @throws IdempotencyKeyReusedException (as the result) the key names a different message
     */
    CompletableFuture<Void> post(IdempotencyKey key, ACLMessage message) {
        String digest = KeyedPost.digestOf(message);
        return first(key, digest, message).thenComposeAsync(first -> {
            if (!first.digest().equals(digest)) {
                throw new IdempotencyKeyReusedException(key, HORIZON_MS);
            }
            return posts.post(message, first.ids());
        }, workers);
    }

    /**
     * What the key's first post stored; this post's own, stored now, if it is the first. A read
     * before the write, so that a repeat takes no identities of its own: unused, they would be holes
     * in the receivers' dedupe windows, which hold a bounded number. The write is a putIfAbsent on
     * the key's primary owner, so of two first posts through two nodes at once exactly one stores its
     * identities, and both go under them.
     */
    private CompletableFuture<KeyedPost> first(IdempotencyKey key, String digest, ACLMessage message) {
        String cacheKey = key.cacheKey();
        return cache.getAsync(cacheKey).thenCompose(stored -> {
            if (stored != null) {
                return CompletableFuture.completedFuture(KeyedPost.fromJson(stored));
            }
            KeyedPost mine = new KeyedPost(digest, posts.identities(message));
            return cache.putIfAbsentAsync(cacheKey, mine.toJson()).thenApply(earlier -> earlier == null ? mine : KeyedPost.fromJson(earlier));
        }).exceptionallyCompose(failure -> CompletableFuture.failedFuture(Failures.refusal(failure,
                cause -> new RemoteNodeException("the cluster's store of idempotency keys did not answer (" + cause
                        + "); post again under the same key"))));
    }
}
