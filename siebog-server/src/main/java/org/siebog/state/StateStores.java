package org.siebog.state;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
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
import jakarta.enterprise.concurrent.ManagedExecutorService;

/**
 * The node's state store. When the node starts with {@code siebog.cassandra.contact-points} set, it
 * connects to Cassandra in the background (so the node's boot does not wait on it), creates the
 * schema if missing, and {@link #store()} then returns the store. Without contact points there is
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

    @Resource
    ManagedExecutorService executor;

    private volatile Optional<CassandraConfig> config = Optional.empty();
    private volatile CompletableFuture<CassandraStateStore> opening = CompletableFuture.failedFuture(
            new StateStoreException(NOT_CONFIGURED));

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
        opening = CompletableFuture.supplyAsync(() -> CassandraStateStore.open(c), executor);
        opening.whenComplete((store, error) -> {
            if (error != null) {
                LOG.log(Level.SEVERE, "state store unavailable: " + cause(error).getMessage());
            }
        });
    }

    /** The store once it is connected; empty when none is configured, while connecting, or when it failed. */
    public Optional<StateStore> store() {
        CompletableFuture<CassandraStateStore> o = opening;
        return o.isDone() && !o.isCompletedExceptionally() ? Optional.of(o.join()) : Optional.empty();
    }

    /** The store, or a {@link StateStoreException} saying why there is none. */
    public StateStore require() {
        return store().orElseThrow(() -> new StateStoreException(status()));
    }

    /** For people: which store and whether it is ready. */
    public String status() {
        CompletableFuture<CassandraStateStore> o = opening;
        if (config.isEmpty() && o.isCompletedExceptionally()) {
            return cause(o.handle((s, e) -> e).join()).getMessage();
        }
        if (!o.isDone()) {
            return "connecting to Cassandra at " + config.get().contactPointsText();
        }
        if (o.isCompletedExceptionally()) {
            return "state store unavailable: " + cause(o.handle((s, e) -> e).join()).getMessage();
        }
        return "ready: " + o.join().describe();
    }

    @PreDestroy
    void stop() {
        opening.cancel(false);
        store().ifPresent(StateStore::close);
    }

    private static Throwable cause(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }
}
