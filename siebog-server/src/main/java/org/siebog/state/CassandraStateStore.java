package org.siebog.state;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Logger;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;

/**
 * The state store on Apache Cassandra (Java driver 4.x): one table, {@code agent_state}, keyed by AID,
 * written only with lightweight transactions ({@code IF NOT EXISTS} for the first version,
 * {@code IF version = ?} after it). Every request is asynchronous and prepared; at most
 * {@link CassandraConfig#maxInFlight()} are in flight from this store at once, and a request that finds
 * no free slot within the request timeout fails rather than queueing without bound.
 */
public final class CassandraStateStore implements StateStore {

    private static final Logger LOG = Logger.getLogger(CassandraStateStore.class.getName());

    public static final String TABLE = "agent_state";

    private final CassandraConfig config;
    private final CqlSession session;
    private final Semaphore inFlight;
    private final PreparedStatement select;
    private final PreparedStatement insertFirst;
    private final PreparedStatement update;
    private final PreparedStatement delete;

    private CassandraStateStore(CassandraConfig config, CqlSession session) {
        this.config = config;
        this.session = session;
        this.inFlight = new Semaphore(config.maxInFlight());
        String table = config.keyspace() + "." + TABLE;
        this.select = session.prepare("SELECT aid, version, state, device, updated FROM " + table + " WHERE aid = ?");
        this.insertFirst = session.prepare("INSERT INTO " + table
                + " (aid, version, state, device, updated) VALUES (?, 1, ?, ?, ?) IF NOT EXISTS");
        this.update = session.prepare("UPDATE " + table
                + " SET version = ?, state = ?, device = ?, updated = ? WHERE aid = ? IF version = ?");
        this.delete = session.prepare("DELETE FROM " + table + " WHERE aid = ?");
    }

    /**
     * Connects, creates the keyspace and table when they are missing, and prepares the statements.
     * Blocks for at most the driver's connect timeout plus the schema timeout.
     *
     * @throws StateStoreException when no contact point answers or the schema cannot be created
     */
    public static CassandraStateStore open(CassandraConfig config) {
        CqlSession session;
        try {
            session = sessionBuilder(config).build();
        } catch (DriverException e) {
            throw new StateStoreException("cannot connect to Cassandra at " + config.contactPointsText()
                    + " (local datacenter " + config.localDc() + "): " + e.getMessage(), e);
        }
        try {
            createSchema(session, config);
            CassandraStateStore store = new CassandraStateStore(config, session);
            LOG.info(() -> "state store: " + store.describe());
            return store;
        } catch (RuntimeException e) {
            session.close();
            if (e instanceof StateStoreException) {
                throw e;
            }
            throw new StateStoreException("Cassandra at " + config.contactPointsText()
                    + " answered but the state store could not be set up: " + e.getMessage(), e);
        }
    }

    private static CqlSessionBuilder sessionBuilder(CassandraConfig config) {
        // Programmatic configuration, on top of the driver's reference.conf from its own jar (so it
        // loads the same inside WildFly as outside). The session is keyspace-less: the schema comes first.
        DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, config.requestTimeout())
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, config.requestTimeout())
                .withDuration(DefaultDriverOption.CONNECTION_SET_KEYSPACE_TIMEOUT, config.requestTimeout())
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, config.requestTimeout())
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, config.schemaTimeout())
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, config.requestTimeout())
                // LWTs need SERIAL agreement; LOCAL_* keeps them inside the local datacenter.
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, "LOCAL_SERIAL")
                .withString(DefaultDriverOption.SESSION_NAME, "siebog-state")
                // Every write is a lightweight transaction, timed by Cassandra itself: no client clock
                // (which would also make the driver probe for the native JNR library it is built without here).
                .withString(DefaultDriverOption.TIMESTAMP_GENERATOR_CLASS, "ServerSideTimestampGenerator")
                .build();
        CqlSessionBuilder builder = CqlSession.builder()
                .withClassLoader(CassandraStateStore.class.getClassLoader())
                .withConfigLoader(loader)
                .addContactPoints(config.contactPoints())
                .withLocalDatacenter(config.localDc());
        if (config.username() != null) {
            builder = builder.withAuthCredentials(config.username(), config.password());
        }
        return builder;
    }

    /** CREATE KEYSPACE / TABLE IF NOT EXISTS, with the schema timeout; running it again changes nothing. */
    static void createSchema(CqlSession session, CassandraConfig config) {
        String keyspace = config.keyspace();
        execute(session, config, "CREATE KEYSPACE IF NOT EXISTS " + keyspace
                + " WITH replication = " + CassandraConfig.replicationCql(config.replication()));
        execute(session, config, "CREATE TABLE IF NOT EXISTS " + keyspace + "." + TABLE + " ("
                + "aid text PRIMARY KEY, "
                + "version bigint, "
                + "state text, "
                + "device text, "
                + "updated timestamp)");
        if (!session.checkSchemaAgreement()) {
            LOG.warning("the Cassandra nodes do not agree on the schema yet; requests may fail until they do");
        }
    }

    private static void execute(CqlSession session, CassandraConfig config, String cql) {
        try {
            session.execute(SimpleStatement.newInstance(cql).setTimeout(config.schemaTimeout()));
        } catch (DriverException e) {
            throw new StateStoreException("Cassandra refused or timed out on the schema statement '" + cql + "': "
                    + e.getMessage(), e);
        }
    }

    /** Runs the schema statements again (they are idempotent); for tests and admins. */
    public void createSchema() {
        createSchema(session, config);
    }

    @Override
    public CompletionStage<Optional<StoredState>> read(String aid) {
        requireAid(aid);
        return limited("read " + aid, () -> session.executeAsync(select.bind(aid)),
                rs -> Optional.ofNullable(rs.one()).map(CassandraStateStore::toState));
    }

    @Override
    public CompletionStage<WriteResult> write(String aid, long expectedVersion, String state, String device) {
        requireAid(aid);
        if (expectedVersion < 0) {
            return CompletableFuture.failedFuture(
                    new StateStoreException("expected version must be 0 (no state yet) or more, got " + expectedVersion));
        }
        if (state == null) {
            return CompletableFuture.failedFuture(new StateStoreException("no state to write for " + aid));
        }
        Instant now = Instant.now();
        if (expectedVersion == 0) {
            return limited("write " + aid, () -> session.executeAsync(insertFirst.bind(aid, state, device, now)),
                    rs -> rs.wasApplied() ? WriteResult.applied(1) : WriteResult.refused(currentVersion(rs.one())));
        }
        long next = expectedVersion + 1;
        return limited("write " + aid,
                () -> session.executeAsync(update.bind(next, state, device, now, aid, expectedVersion)),
                rs -> rs.wasApplied() ? WriteResult.applied(next) : WriteResult.refused(currentVersion(rs.one())));
    }

    @Override
    public CompletionStage<Void> delete(String aid) {
        requireAid(aid);
        return limited("delete " + aid, () -> session.executeAsync(delete.bind(aid)), rs -> null);
    }

    /** A refused LWT's row holds [applied] and the stored columns; a refused IF version = ? on no row holds only [applied]. */
    private static long currentVersion(Row row) {
        if (row == null || !row.getColumnDefinitions().contains("version") || row.isNull("version")) {
            return 0;
        }
        return row.getLong("version");
    }

    private static StoredState toState(Row row) {
        return new StoredState(row.getString("aid"), row.getLong("version"), row.getString("state"),
                row.getString("device"), row.getInstant("updated"));
    }

    private static void requireAid(String aid) {
        if (aid == null || aid.isBlank()) {
            throw new StateStoreException("an AID is needed");
        }
    }

    /** Takes an in-flight slot (waiting up to the request timeout), sends, and frees the slot when the answer comes. */
    private <T> CompletionStage<T> limited(String what, java.util.function.Supplier<CompletionStage<AsyncResultSet>> request,
            Function<AsyncResultSet, T> result) {
        boolean acquired;
        try {
            acquired = inFlight.tryAcquire(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(new StateStoreException(what + ": interrupted while waiting for a slot"));
        }
        if (!acquired) {
            return CompletableFuture.failedFuture(new StateStoreException(what + ": " + config.maxInFlight()
                    + " requests to Cassandra already in flight for " + config.requestTimeout().toMillis() + " ms"));
        }
        CompletionStage<AsyncResultSet> sent;
        try {
            sent = request.get();
        } catch (RuntimeException e) {
            inFlight.release();
            return CompletableFuture.failedFuture(failure(what, e));
        }
        CompletableFuture<T> answer = new CompletableFuture<>();
        sent.whenComplete((rs, error) -> {
            inFlight.release();
            if (error != null) {
                answer.completeExceptionally(failure(what, error));
                return;
            }
            try {
                answer.complete(result.apply(rs));
            } catch (RuntimeException e) {
                answer.completeExceptionally(failure(what, e));
            }
        });
        return answer;
    }

    private StateStoreException failure(String what, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof StateStoreException sse) {
            return sse;
        }
        return new StateStoreException("Cassandra at " + config.contactPointsText() + " failed to " + what + ": "
                + cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
    }

    /** Requests in flight right now (for tests and metrics). */
    public int inFlight() {
        return config.maxInFlight() - inFlight.availablePermits();
    }

    @Override
    public String describe() {
        return "Cassandra at " + config.contactPointsText() + " (local datacenter " + config.localDc() + "), keyspace "
                + config.keyspace() + ", table " + TABLE + ", at most " + config.maxInFlight() + " requests in flight";
    }

    @Override
    public void close() {
        session.close();
    }
}
