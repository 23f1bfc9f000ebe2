package org.siebog.state;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.time.Duration;
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

import org.siebog.platform.Failures;

/**
 * The state store on Apache Cassandra (Java driver 4.x): one table, {@code agent_state}, keyed by AID.
 * A write carries its version as its write timestamp ({@code USING TIMESTAMP}), so Cassandra's own
 * rule, the highest timestamp wins, keeps the newest version whatever order writes arrive in; no
 * lightweight transaction is needed (those run at a quarter of the speed; {@link StateVersions}
 * decides the versions). Every request is asynchronous and prepared; at most
 * {@link CassandraConfig#maxInFlight()} are in flight from this store at once, and the rest wait
 * their turn in order, so a slow Cassandra slows its callers instead of failing them.
 */
public final class CassandraStateStore implements StateStore {

    private static final Logger LOG = Logger.getLogger(CassandraStateStore.class.getName());

    public static final String TABLE = "agent_state";
    /** Requests waiting for a slot at most (devices × their pending limit stays far below in practice). */
    static final int MAX_WAITING = 100_000;

    private final CassandraConfig config;
    private final CqlSession session;
    private final Semaphore inFlight;
    /** Requests waiting for a slot; bounded, since each device may have only so many pending. */
    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final PreparedStatement select;
    private final PreparedStatement write;

    private CassandraStateStore(CassandraConfig config, CqlSession session) {
        this.config = config;
        this.session = session;
        this.inFlight = new Semaphore(config.maxInFlight());
        String table = config.keyspace() + "." + TABLE;
        this.select = session.prepare("SELECT aid, version, state, device, updated FROM " + table + " WHERE aid = ?");
        this.write = session.prepare("INSERT INTO " + table
                + " (aid, version, state, device, updated) VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?");
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
                // A write acknowledged by a quorum of the local datacenter is read back by any later quorum read.
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .withString(DefaultDriverOption.SESSION_NAME, "siebog-state")
                // Writes carry their version as timestamp; no client clock (which would also make the
                // driver probe for the native JNR library it is built without here).
                .withString(DefaultDriverOption.TIMESTAMP_GENERATOR_CLASS, "ServerSideTimestampGenerator")
                // Back within seconds of Cassandra coming back (the default backs off to a minute).
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
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
        return limited("read", aid, () -> session.executeAsync(select.bind(aid)),
                rs -> Optional.ofNullable(rs.one()).map(CassandraStateStore::toState));
    }

    @Override
    public CompletionStage<Void> write(String aid, long version, String state, String device) {
        requireAid(aid);
        if (version < 1) {
            return CompletableFuture.failedFuture(new StateStoreException("a version is 1 or more, got " + version));
        }
        return limited("write", aid, () -> session.executeAsync(write.boundStatementBuilder()
                .setString(0, aid).setLong(1, version).set(2, state, Utf8Text.CODEC).setString(3, device)
                .setInstant(4, Instant.now()).setLong(5, version).build()), rs -> null);
    }

    private static StoredState toState(Row row) {
        return new StoredState(row.getString("aid"), row.getLong("version"), row.get("state", Utf8Text.CODEC),
                row.getString("device"), row.getInstant("updated"));
    }

    private static void requireAid(String aid) {
        if (aid == null || aid.isBlank()) {
            throw new StateStoreException("an AID is needed");
        }
    }

    /**
     * Sends the request when a slot is free, else queues it behind the others; the answer frees the
     * slot for the next. Nothing here blocks: callers include WebSocket I/O threads.
     */
    private <T> CompletionStage<T> limited(String operation, String aid, Supplier<CompletionStage<AsyncResultSet>> request,
            Function<AsyncResultSet, T> result) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        Runnable send = () -> {
            CompletionStage<AsyncResultSet> sent;
            try {
                sent = request.get();
            } catch (RuntimeException e) {
                sent = CompletableFuture.failedFuture(e);
            }
            sent.whenComplete((rs, error) -> {
                inFlight.release();
                drain();
                if (error != null) {
                    answer.completeExceptionally(failure(operation + " " + aid, error));
                    return;
                }
                try {
                    answer.complete(result.apply(rs));
                } catch (RuntimeException e) {
                    answer.completeExceptionally(failure(operation + " " + aid, e));
                }
            });
        };
        if (waitingCount.incrementAndGet() > MAX_WAITING) {
            waitingCount.decrementAndGet();
            return CompletableFuture.failedFuture(new StateStoreException(operation + " " + aid + ": " + MAX_WAITING
                    + " requests are already waiting for Cassandra"));
        }
        waiting.add(send);
        drain();
        return answer;
    }

    /** Starts waiting requests while slots are free; called after every change to either. */
    private void drain() {
        while (!waiting.isEmpty() && inFlight.tryAcquire()) {
            Runnable next = waiting.poll();
            if (next == null) {
                inFlight.release();
                return;
            }
            waitingCount.decrementAndGet();
            next.run();
        }
    }

    private StateStoreException failure(String what, Throwable error) {
        Throwable cause = Failures.cause(error);
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
