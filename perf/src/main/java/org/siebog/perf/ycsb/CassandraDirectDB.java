package org.siebog.perf.ycsb;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB straight to Cassandra, the yardstick for {@link SiebogDeviceDB}: the same table and the same
 * write the Siebog node makes for a {@code saveState} (an {@code INSERT} with the new version as its
 * write timestamp, {@code LOCAL_QUORUM}), the same cap on requests in flight (the node's
 * {@code siebog.cassandra.max-in-flight}, 16), none of the rest (no WebSocket, no version check in
 * Infinispan). Keys get the prefix {@code direct-} so they never meet the Siebog run's AIDs.
 *
 * <p>Properties: {@code cassandra.contactpoint} (127.0.0.1:9042), {@code cassandra.localdc}
 * (datacenter1), {@code cassandra.keyspace} (siebog), {@code cassandra.maxinflight} (16).
 */
public final class CassandraDirectDB extends DB {

    static final String KEY_PREFIX = "direct-";

    /** One session per JVM, as one Siebog node has one; YCSB makes a DB instance per thread. */
    private static Shared shared;
    private static int users;

    private Shared db;

    /** The session, its statements and the per-key versions, shared by all YCSB threads of the JVM. */
    private record Shared(CqlSession session, PreparedStatement write, PreparedStatement read,
            PreparedStatement delete, Semaphore inFlight, Map<String, AtomicLong> versions) {
    }

    @Override
    public void init() throws DBException {
        synchronized (CassandraDirectDB.class) {
            if (shared == null) {
                shared = connect(getProperties());
            }
            users++;
            db = shared;
        }
    }

    @Override
    public void cleanup() {
        synchronized (CassandraDirectDB.class) {
            if (--users == 0) {
                shared.session().close();
                shared = null;
            }
        }
    }

    private static Shared connect(Properties props) throws DBException {
        String[] hostPort = props.getProperty("cassandra.contactpoint", "127.0.0.1:9042").split(":");
        String keyspace = props.getProperty("cassandra.keyspace", "siebog");
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(60))
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .build();
        try {
            CqlSession session = CqlSession.builder()
                    .withConfigLoader(config)
                    .addContactPoint(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])))
                    .withLocalDatacenter(props.getProperty("cassandra.localdc", "datacenter1"))
                    .build();
            // The Siebog node creates the same schema at start-up; this makes the binding usable alone.
            Duration ddl = Duration.ofSeconds(60);
            session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + keyspace
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}").setTimeout(ddl));
            String table = keyspace + ".agent_state";
            session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + table
                    + " (aid text PRIMARY KEY, version bigint, state text, device text, updated timestamp)")
                    .setTimeout(ddl));
            return new Shared(session,
                    session.prepare("INSERT INTO " + table
                            + " (aid, version, state, device, updated) VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?"),
                    session.prepare("SELECT version, state FROM " + table + " WHERE aid = ?"),
                    session.prepare("DELETE FROM " + table + " WHERE aid = ?"),
                    new Semaphore(Integer.parseInt(props.getProperty("cassandra.maxinflight", "16"))),
                    new ConcurrentHashMap<>());
        } catch (DriverException e) {
            throw new DBException("cannot reach Cassandra at " + String.join(":", hostPort) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        AtomicLong version = new AtomicLong(1);
        db.versions().put(key, version);
        return write(key, version.get(), values);
    }

    /**
     * The next version of the key. A run phase in a fresh JVM starts from 1, what the load phase wrote,
     * so its first update writes 2: a higher timestamp, as the node's versions would be.
     */
    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        long version = db.versions().computeIfAbsent(key, k -> new AtomicLong(1)).incrementAndGet();
        return write(key, version, values);
    }

    private Status write(String key, long version, Map<String, ByteIterator> values) {
        String state = RecordJson.toJson(values);
        return limited(() -> db.session().execute(db.write().bind(KEY_PREFIX + key, version, state, "direct",
                Instant.now(), version)).wasApplied() ? Status.OK : Status.ERROR);
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        return limited(() -> {
            Row row = db.session().execute(db.read().bind(KEY_PREFIX + key)).one();
            if (row == null) {
                return Status.NOT_FOUND;
            }
            RecordJson.readInto(RecordJson.parse(row.getString("state")), fields, result);
            return Status.OK;
        });
    }

    @Override
    public Status delete(String table, String key) {
        db.versions().remove(key);
        return limited(() -> {
            db.session().execute(db.delete().bind(KEY_PREFIX + key));
            return Status.OK;
        });
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        return Status.NOT_IMPLEMENTED;
    }

    /** At most max-in-flight requests at once, like the node's store; a driver error is a failed operation. */
    private Status limited(Callable<Status> request) {
        try {
            db.inFlight().acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Status.ERROR;
        }
        try {
            return request.call();
        } catch (Exception e) {
            return Status.ERROR;
        } finally {
            db.inFlight().release();
        }
    }
}
