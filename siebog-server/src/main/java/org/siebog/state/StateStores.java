package org.siebog.state;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;

import org.siebog.platform.Failures;

/**
 * The node's state store. When the node starts with {@code siebog.cassandra.contact-points} set, it
 * connects to Cassandra in the background (so the node's boot does not wait on it) and creates the
 * schema if missing; a failed attempt is tried again every {@link #RETRY_SECONDS} s, so a node that
 * came up before Cassandra gets its store once Cassandra is there. Without contact points there is
 * no store, and {@link #status()} says so and how to configure one.
 */
@Startup
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class StateStores {

    private static final Logger LOG = Logger.getLogger(StateStores.class.getName());

    static final String NOT_CONFIGURED = "no state store: siebog.cassandra.contact-points is not set "
            + "(./siebog run sets it; for an external cluster see docs/persistence.md)";
    static final long RETRY_SECONDS = 5;

    @Resource
    ManagedScheduledExecutorService executor;

    private volatile Optional<CassandraConfig> config = Optional.empty();
    private volatile CompletableFuture<CassandraStateStore> opening = CompletableFuture.failedFuture(
            new StateStoreException(NOT_CONFIGURED));
    private volatile boolean closed;

    @PostConstruct
    void start() {
        try {
            config = CassandraConfig.fromSystem();
        } catch (IllegalArgumentException e) {
            LOG.severe("state store: bad configuration: " + e.getMessage());
            opening = CompletableFuture.failedFuture(new StateStoreException("bad configuration: " + e.getMessage(), e));
            return;
        }
        if (config.isEmpty()) {
            LOG.info(NOT_CONFIGURED);
            return;
        }
        CassandraConfig c = config.get();
        LOG.info(() -> "state store: connecting to Cassandra at " + c.contactPointsText() + " (local datacenter "
                + c.localDc() + ", keyspace " + c.keyspace() + ")");
        open(c);
    }

    private void open(CassandraConfig c) {
        CompletableFuture<CassandraStateStore> attempt = CompletableFuture.supplyAsync(() -> CassandraStateStore.open(c), executor);
        opening = attempt;
        attempt.whenComplete((store, error) -> {
            if (error == null) {
                return;
            }
            LOG.severe("state store unavailable: " + reason(error) + "; trying again in " + RETRY_SECONDS + " s");
            if (!closed) {
                executor.schedule(() -> {
                    if (!closed) {
                        open(c);
                    }
                }, RETRY_SECONDS, TimeUnit.SECONDS);
            }
        });
    }

    /** The store once it is connected; empty when none is configured, while connecting, or when it failed. */
    public Optional<StateStore> store() {
        CompletableFuture<CassandraStateStore> o = opening;
        return o.isDone() && !o.isCompletedExceptionally() ? Optional.of(o.join()) : Optional.empty();
    }

    /**
     * The store, as soon as it is connected (a connection attempt ends within its connect and schema
     * timeouts); failed with a {@link StateStoreException} saying why when there is none, or when the
     * last attempt failed (the next one is on its way).
     */
    public CompletionStage<StateStore> ready() {
        return opening.thenApply(StateStore.class::cast);
    }

    /** Whether a store is configured (it may still be connecting, or have failed to). */
    public boolean configured() {
        return config.isPresent();
    }

    /** For people: which store and whether it is ready. */
    public String status() {
        CompletableFuture<CassandraStateStore> o = opening;
        if (config.isEmpty() && o.isCompletedExceptionally()) {
            return reason(o.handle((s, e) -> e).join());
        }
        if (!o.isDone()) {
            return "connecting to Cassandra at " + config.get().contactPointsText();
        }
        if (o.isCompletedExceptionally()) {
            return "state store unavailable: " + reason(o.handle((s, e) -> e).join());
        }
        return "ready: " + o.join().describe();
    }

    @PreDestroy
    void stop() {
        closed = true;
        opening.cancel(false);
        store().ifPresent(StateStore::close);
    }

    /** Why a store request failed, for people. */
    static String reason(Throwable error) {
        Throwable cause = Failures.cause(error);
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
