package org.siebog.delivery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.siebog.api.ACLMessage;
import org.siebog.api.RemoteNodeException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.NodeLease;
import org.siebog.cluster.Wire;
import org.siebog.directory.StringCaches;
import org.siebog.message.MessageId;
import org.siebog.platform.Failures;
import org.siebog.platform.PlatformConfig;

/**
 * Messages posted with a delay ({@code ?delayMs}, {@link org.siebog.api.MessageManager#post(ACLMessage, Duration)},
 * an agent's {@code sendLater}), durable as Orleans' reminders are: each is stored in the distributed
 * cache {@code delayed-posts} ({@code siebog.replication.copies} owners) before its post is answered,
 * naming the node that holds it; that node fires it from its timer at its time and removes it once
 * it is admitted. When the holder leaves the cluster (dies, or is cut off past its lease), a survivor
 * takes it over (a compare-and-set on its holder, the survivor chosen as {@code Failover} chooses
 * takeovers) and fires it at its time, or at once if that has passed.
 *
 * <p>It fires once as far as its receivers can tell: it goes under an identity made from its key
 * ({@link SameIdentity} {@code delayed:KEY}; an agent's post is keyed by the message whose handler
 * scheduled it), so a stateful receiver drops a second firing (its holder died between the admission
 * and the removal); a stateless receiver may get it twice then. A holder that may not act for the
 * cluster (NodeLease) keeps it and looks again in a second: the majority takes it over (and the
 * holder, rejoining, forgets its timers: {@link #rejoining()}), or the holder gets its lease back.
 * Storing one is a cache write, firing one a removal: nothing waits on either, on a lane or the
 * timer thread (a thousand Senders each checking every second made that 2,000 a second).
 */
@ApplicationScoped
public class DelayedPosts {

    /** Counts this node's rejoins: a timer set before the last one fires nothing. */
    private volatile long generation;
    /** How soon a holder that could not fire a post (it may not act for the cluster now) looks again. */
    private static final long RETRY_MS = 1_000;
    /**
     * How long after its time a post refused for now is tried again: past it, its next refusal goes
     * back to its sender. Longer than any takeover (seconds) or healed partition (about a minute
     * under chaos); a cluster that cannot admit a message for this long is down, and the sender hears so.
     */
    private static final long RETRY_FOR_MS = 300_000;
    /** The stored format's version: the first byte of every entry. */
    private static final int FORMAT = 1;

    /** What a node holds of messages waiting for their delay: the bound is this node's, for the posts it holds. */
    private final DelayedPostBudget budget = new DelayedPostBudget(PlatformConfig.SYSTEM.maxDelayedBytes());
    /** Values are the stored form as Base64 text: a compare-and-set compares strings by content, byte arrays by identity. */
    private AdvancedCache<String, String> cache;

    @Inject
    ClusterNode cluster;

    @Inject
    AgentExecutor executor;

    @Inject
    MessageRouter router;

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/delayed-posts")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
    }

    /** One delayed post as stored: the node that fires it, when (wall-clock milliseconds), the counter of its identity, the message. */
    record Stored(String holder, long dueAtMillis, long turn, ACLMessage message) {

        Stored heldBy(String node) {
            return new Stored(node, dueAtMillis, turn, message);
        }

        String encode() {
            return Base64.getEncoder().encodeToString(
                    new Wire.Writer().octet(FORMAT).string(holder).int64(dueAtMillis).int64(turn).message(message).toBytes());
        }

        static Stored decode(String encoded) {
            byte[] stored = Base64.getDecoder().decode(encoded);
            Wire.Reader in = new Wire.Reader(stored, 0, stored.length);
            try {
                int format = in.octet();
                if (format != FORMAT) {
                    throw new IOException("delayed post format " + format + " (this node reads format " + FORMAT + ")");
                }
                return new Stored(in.string(), in.int64(), in.int64(), in.message());
            } catch (IOException e) {
                throw new UncheckedIOException("unreadable delayed post", e);
            }
        }
    }

    /**
     * Stores {@code message} under {@code key} (storing again under a key replaces the post: a handler
     * replayed after a crash schedules what it had scheduled) to be posted after {@code delay}, and once it is stored on its owners
     * starts this node's timer for it. Refused at once (503) when this node holds its bound of delayed
     * messages already; the stage fails when the cache did not take it, and when this node lost touch
     * with the cluster while it stored it. Waits for nothing: an agent's {@code sendLater} runs on its lane.
     *
     * <p>Why the second: a store under way when a cut begins waits until the view drops the owners on
     * the other side, then completes on this side's owners alone; when the cut heals, the majority's
     * copy of the cache wins (PREFERRED_ALWAYS) and the post is gone. Answered 202, it would be lost
     * in silence (perf/chaos, a 2|3 cut). The same view takes this node's lease, so a store that ends
     * with the lease still held, and never lost meanwhile, reached the majority's owners; one that
     * does not is answered 503 saying it may or may not fire (its timer is set all the same: the lease
     * may come back).
     */
    CompletableFuture<Void> schedule(String key, ACLMessage message, Duration delay) {
        long cost = message.estimatedBytes();
        budget.take(cost);
        Stored post = new Stored(cluster.name(), System.currentTimeMillis() + delay.toMillis(), SameIdentity.counterOf(key), message);
        long generation = this.generation;
        NodeLease lease = cluster.lease();
        int epoch = lease.epoch();
        return cache.withFlags(Flag.IGNORE_RETURN_VALUES).putAsync(key, post.encode()).handle((stored, failed) -> {
            if (failed != null) {
                budget.giveBack(cost);
                throw Failures.refusal(failed, cause -> new RemoteNodeException("the delayed message could not be stored: " + cause));
            }
            fireAt(key, post, cost, generation); // kept either way: if this copy survives, it fires here or where it is taken over
            if (!lease.holds() || lease.epoch() != epoch) {
                throw new RemoteNodeException("node " + cluster.name() + " lost touch with the cluster while it stored the delayed"
                        + " message: it may be delivered or not" + (lease.holds() ? "" : ". " + lease.refusal().getMessage()));
            }
            return null;
        });
    }

    /**
     * Forgets the timers of the delayed posts this node holds: it rejoins the cluster empty, and the
     * others have taken its posts over (or will: it is not a member until it is back).
     */
    public void rejoining() {
        generation++;
    }

    private void fireAt(String key, Stored post, long cost, long generation) {
        // A millisecond more: the due time and "now" are whole milliseconds, each up to one short of the
        // moment it was read, so without it a post could fire a fraction of a millisecond before its
        // delay was up (MessagingIT once saw one delivered 499 ms after a 500 ms post).
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(post.dueAtMillis() - System.currentTimeMillis() + 1);
        executor.timer().schedule(() -> fire(key, post, cost, generation), Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }

    /**
     * Posts it, unless the node rejoined since (another node holds it now), then removes it. Refused for
     * now (its receiver is being taken over, its node is gone or its log full), it fires again a second
     * later, under the same identity (a stateful receiver that admitted it meanwhile drops the repeat),
     * until {@link #RETRY_FOR_MS} after its time: then its sender is told.
     */
    private void fire(String key, Stored post, long cost, long scheduledIn) {
        if (scheduledIn != generation) {
            budget.giveBack(cost);
            return;
        }
        if (!cluster.lease().holds()) {
            // The majority takes it over (and this node rejoins), or the lease comes back: look again in a second.
            executor.timer().schedule(() -> fire(key, post, cost, scheduledIn), RETRY_MS, TimeUnit.MILLISECONDS);
            return;
        }
        boolean lastTry = System.currentTimeMillis() > post.dueAtMillis() + RETRY_FOR_MS;
        router.postDelayed(post.message(), new SameIdentity(new MessageId("delayed:" + key, post.turn())), lastTry).whenComplete((settled, refusedForNow) -> {
            if (refusedForNow != null) {
                executor.timer().schedule(() -> fire(key, post, cost, scheduledIn), RETRY_MS, TimeUnit.MILLISECONDS);
                return;
            }
            budget.giveBack(cost);
            cache.withFlags(Flag.IGNORE_RETURN_VALUES).removeAsync(key);
        });
    }

    /**
     * Sets this node's timers again for the posts that still name it after it rejoined and no other
     * node took them over: its timers from before were forgotten ({@link #rejoining()}), and as a
     * member again it is nobody's to take over. Returns how many.
     */
    public int fireHeld() {
        int held = 0;
        for (Map.Entry<String, Stored> entry : stored().entrySet()) {
            if (entry.getValue().holder().equals(cluster.name())) {
                long cost = entry.getValue().message().estimatedBytes();
                budget.takeAnyway(cost);
                fireAt(entry.getKey(), entry.getValue(), cost, generation);
                held++;
            }
        }
        return held;
    }

    /** How many delayed posts {@code node} holds. */
    public long heldBy(String node) {
        return stored().values().stream().filter(post -> post.holder().equals(node)).count();
    }

    /** The nodes holding delayed posts that are not {@code members}: their posts are for the survivors to take over. */
    public Set<String> departedHolders(List<String> members) {
        Set<String> holders = new TreeSet<>();
        stored().values().forEach(post -> {
            if (!members.contains(post.holder())) {
                holders.add(post.holder());
            }
        });
        return holders;
    }

    /**
     * Takes over the delayed posts of nodes that are not {@code members} whose keys are this node's
     * ({@code mine}): each becomes this node's (a compare-and-set, so one survivor gets it) and fires at
     * its time, or at once if that has passed. Returns how many it took over.
     */
    public int takeOver(List<String> members, Predicate<String> mine) {
        int taken = 0;
        for (Map.Entry<String, Stored> entry : stored().entrySet()) {
            Stored post = entry.getValue();
            if (members.contains(post.holder()) || !mine.test(entry.getKey())) {
                continue;
            }
            Stored here = post.heldBy(cluster.name());
            if (cache.replace(entry.getKey(), post.encode(), here.encode())) {
                long cost = post.message().estimatedBytes();
                budget.takeAnyway(cost);
                fireAt(entry.getKey(), here, cost, generation);
                taken++;
            }
        }
        return taken;
    }

    private Map<String, Stored> stored() {
        Map<String, Stored> all = new HashMap<>();
        cache.forEach((key, value) -> all.put(key, Stored.decode(value)));
        return all;
    }
}
