package org.siebog.tuples;

import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryExpired;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryRemoved;
import org.infinispan.notifications.cachelistener.annotation.DataRehashed;
import org.infinispan.notifications.cachelistener.annotation.TopologyChanged;
import org.infinispan.notifications.cachelistener.event.CacheEntryEvent;
import org.infinispan.notifications.cachelistener.event.Event;

import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.SiebogException;
import org.siebog.delivery.AgentExecutor;
import org.siebog.directory.StringCaches;
import org.siebog.platform.CopiesRetaken;
import org.siebog.platform.PlatformConfig;
import org.siebog.platform.Setting;

/**
 * A Linda tuple space shared by the cluster: a replicated Infinispan cache {@code tuples} (defined
 * in {@code cluster-profile.cli}) keyed by a tuple's id, each tuple a list of strings, a lease its
 * lifespan; this node's copy is {@link TupleIndex}. {@code out} writes a tuple; {@code rdp} and
 * {@code inp} read or take one that matches a template now (null fields match anything), or find
 * none; {@code rd} and {@code in} wait for one up to a timeout (and then find none), holding no
 * thread meanwhile.
 *
 * <p>Taking is a conditional removal of the tuple's entry, which the cache makes atomic across the
 * cluster, so a tuple is taken once however many nodes race for it. On this node, every take and
 * every wake-up of a waiting {@code rd} or {@code in} runs on one thread, in order: a waiter is
 * registered before the space is searched, and a tuple that arrives meanwhile wakes it after that.
 *
 * <p>Bounds (400 or 503 beyond, nothing changed): a tuple 1 to {@value #MAX_FIELDS} fields, all of
 * them at most {@value #MAX_CHARS} characters together; a lease from 1 ms to a day; at most
 * {@code siebog.tuples.max-tuples} tuples in the space and {@code siebog.tuples.max-waiting} waiting
 * readers and takers per node.
 */
@ApplicationScoped
public class TupleSpace {

    static final int MAX_FIELDS = 16;
    static final int MAX_CHARS = 4096;
    static final long MAX_LEASE_MS = Duration.ofDays(1).toMillis();
    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    AgentExecutor executor;

    @Resource
    ManagedThreadFactory threads;

    private AdvancedCache<String, String> cache;
    private final TupleIndex index = new TupleIndex();
    private final Changes changes = new Changes();
    /** Waiting rd and in, in the order they came; touched on the taker's thread only. */
    private final List<Waiter> waiters = new ArrayList<>();
    private volatile int waiting;
    private ExecutorService taker;

    /** A waiting {@code rd} ({@code take} false) or {@code in}. */
    private record Waiter(List<String> template, boolean take, CompletableFuture<Optional<List<String>>> result) {
    }

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/tuples")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
        cache.addListener(changes);
        rebuild();
    }

    @PreDestroy
    void stop() {
        cache.removeListener(changes);
        if (taker != null) {
            taker.shutdownNow();
        }
    }

    private synchronized ExecutorService taker() {
        if (taker == null) {
            taker = Executors.newSingleThreadExecutor(threads);
        }
        return taker;
    }

    /** Writes a tuple; completes once every node has it. */
    public CompletableFuture<Void> out(List<String> fields, Duration lease) {
        check(fields, false);
        if (lease != null && (lease.toMillis() < 1 || lease.toMillis() > MAX_LEASE_MS)) {
            throw new InvalidAgentRequestException("a tuple's lease must be from 1 to " + MAX_LEASE_MS + " ms; got " + lease.toMillis() + " ms");
        }
        int max = Setting.TUPLES_MAX_TUPLES.intValue();
        if (index.size() >= max) {
            throw new SpaceFullException("the tuple space holds " + max + " tuples, as many as it may (siebog.tuples.max-tuples);"
                    + " write again once some are taken or their leases end");
        }
        String json = JSON.createObjectBuilder().add("fields", array(fields))
                .add("expires", lease == null ? 0 : System.currentTimeMillis() + lease.toMillis()).build().toString();
        AdvancedCache<String, String> writer = cache.withFlags(Flag.IGNORE_RETURN_VALUES);
        String id = UUID.randomUUID().toString();
        return (lease == null ? writer.putAsync(id, json) : writer.putAsync(id, json, lease.toMillis(), TimeUnit.MILLISECONDS))
                .thenApply(ignored -> null);
    }

    /** A tuple that matches {@code template} now, left in the space; empty when none does. */
    public Optional<List<String>> rdp(List<String> template) {
        check(template, true);
        return index.matching(template, System.currentTimeMillis()).stream().findFirst().map(TupleIndex.Stored::fields);
    }

    /** Takes a tuple that matches {@code template} now; empty when none does. */
    public CompletableFuture<Optional<List<String>>> inp(List<String> template) {
        check(template, true);
        return CompletableFuture.supplyAsync(() -> takeOne(template), taker());
    }

    /** Reads a tuple that matches, waiting up to {@code timeout} for one; empty when none came. */
    public CompletableFuture<Optional<List<String>>> rd(List<String> template, Duration timeout) {
        return await(template, timeout, false);
    }

    /** Takes a tuple that matches, waiting up to {@code timeout} for one; empty when none came. */
    public CompletableFuture<Optional<List<String>>> in(List<String> template, Duration timeout) {
        return await(template, timeout, true);
    }

    private CompletableFuture<Optional<List<String>>> await(List<String> template, Duration timeout, boolean take) {
        check(template, true);
        long maxMillis = PlatformConfig.SYSTEM.maxAwaitReplyMillis();
        if (timeout.toMillis() < 1 || timeout.toMillis() > maxMillis) {
            throw new InvalidAgentRequestException("a wait for a tuple must last from 1 to " + maxMillis
                    + " ms (siebog.message.max-await-reply-ms); got " + timeout.toMillis() + " ms");
        }
        int max = Setting.TUPLES_MAX_WAITING.intValue();
        if (waiting >= max) {
            throw new SpaceFullException("this node already has " + max + " readers and takers waiting for tuples (siebog.tuples.max-waiting);"
                    + " wait again once some have their tuples or time out");
        }
        Waiter waiter = new Waiter(Collections.unmodifiableList(new ArrayList<>(template)), take, new CompletableFuture<>());
        taker().execute(() -> {
            Optional<List<String>> now = take ? takeOne(waiter.template()) : rdp(waiter.template());
            if (now.isPresent()) {
                waiter.result().complete(now);
                return;
            }
            waiters.add(waiter);
            waiting = waiters.size();
            executor.timer().schedule(() -> taker().execute(() -> {
                if (waiters.remove(waiter)) {
                    waiting = waiters.size();
                    waiter.result().complete(Optional.empty());
                }
            }), timeout.toMillis(), TimeUnit.MILLISECONDS);
        });
        return waiter.result();
    }

    /** On the taker's thread: the first matching tuple this node can take, trying the next when another node took one first. */
    private Optional<List<String>> takeOne(List<String> template) {
        for (TupleIndex.Stored candidate : index.matching(template, System.currentTimeMillis())) {
            if (cache.remove(candidate.id(), candidate.json())) {
                return Optional.of(candidate.fields());
            }
        }
        return Optional.empty();
    }

    /** On the taker's thread: a new tuple for the waiters, in their order; the first taker that takes it ends its round. */
    private void arrived(TupleIndex.Stored tuple) {
        for (Waiter waiter : List.copyOf(waiters)) {
            if (!TupleIndex.matches(waiter.template(), tuple.fields())) {
                continue;
            }
            if (!waiter.take()) {
                waiters.remove(waiter);
                waiter.result().complete(Optional.of(tuple.fields()));
            } else {
                if (cache.remove(tuple.id(), tuple.json())) {
                    waiters.remove(waiter);
                    waiter.result().complete(Optional.of(tuple.fields()));
                }
                break; // taken, here or by another node
            }
        }
        waiting = waiters.size();
    }

    /** Fields of a tuple (none null), or of a template (null: any value). */
    private static void check(List<String> fields, boolean template) {
        if (fields == null || fields.isEmpty() || fields.size() > MAX_FIELDS) {
            throw new InvalidAgentRequestException("a " + (template ? "template" : "tuple") + " has 1 to " + MAX_FIELDS + " fields; got "
                    + (fields == null ? 0 : fields.size()));
        }
        long chars = 0;
        for (String field : fields) {
            if (field == null && !template) {
                throw new InvalidAgentRequestException("a tuple's fields are strings, none null (null matches anything in a template only)");
            }
            chars += field == null ? 0 : field.length();
        }
        if (chars > MAX_CHARS) {
            throw new InvalidAgentRequestException("a " + (template ? "template" : "tuple") + "'s fields may hold " + MAX_CHARS
                    + " characters together; these hold " + chars);
        }
    }

    static JsonArrayBuilder array(List<String> fields) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        fields.forEach(f -> {
            if (f == null) {
                array.addNull();
            } else {
                array.add(f);
            }
        });
        return array;
    }

    /** A JSON array of strings and nulls as fields; anything else is a 400. */
    static List<String> fields(JsonValue value, String what) {
        if (!(value instanceof JsonArray array)) {
            throw new InvalidAgentRequestException("\"" + what + "\" must be an array of strings" + (what.equals("template") ? " and nulls" : ""));
        }
        List<String> fields = new ArrayList<>(array.size());
        for (JsonValue field : array) {
            if (field instanceof JsonString text) {
                fields.add(text.getString());
            } else if (field == JsonValue.NULL) {
                fields.add(null);
            } else {
                throw new InvalidAgentRequestException("\"" + what + "\" holds " + field + ": fields are strings" + (what.equals("template") ? " or null" : ""));
            }
        }
        return fields;
    }

    private static TupleIndex.Stored parse(String id, String json) {
        JsonObject value = JSON.createReader(new StringReader(json)).readObject();
        return new TupleIndex.Stored(id, fields(value.get("fields"), "fields"), value.getJsonNumber("expires").longValue(), json);
    }

    /** At start and when members change: the whole cache into the index, and what it no longer has out of it. */
    /** This node took its copies of the caches again (it rejoined after a split): the listener went with the old copy. */
    void copiesRetaken(@Observes(notifyObserver = Reception.IF_EXISTS) CopiesRetaken retaken) {
        cache.addListener(changes);
        rebuild();
    }

    private void rebuild() {
        cache.entrySet().forEach(e -> index.put(parse(e.getKey(), e.getValue())));
        for (String id : index.ids()) {
            if (!cache.containsKey(id)) {
                index.remove(id);
            }
        }
    }

    /** 503: the space, or this node's waiters, at their bound. */
    static final class SpaceFullException extends SiebogException {
        SpaceFullException(String message) {
            super(message);
        }

        @Override
        public int status() {
            return 503;
        }
    }

    /** Keeps the index, and wakes the waiters when a tuple arrives. */
    @Listener(observation = Listener.Observation.POST)
    public final class Changes {

        @CacheEntryCreated
        public void written(CacheEntryEvent<String, String> event) {
            if (event.getValue() != null) {
                TupleIndex.Stored tuple = parse(event.getKey(), event.getValue());
                index.put(tuple);
                taker().execute(() -> arrived(tuple));
            }
        }

        @CacheEntryRemoved
        @CacheEntryExpired
        public void removed(CacheEntryEvent<String, String> event) {
            index.remove(event.getKey());
        }

        @TopologyChanged
        @DataRehashed
        public void membersChanged(Event<String, String> event) {
            rebuild();
        }
    }
}
