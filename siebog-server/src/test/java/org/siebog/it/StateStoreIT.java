package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.state.CassandraConfig;
import org.siebog.state.CassandraStateStore;
import org.siebog.state.StateStore;
import org.siebog.state.StateStoreException;
import org.siebog.state.StateStores;
import org.siebog.state.StoredState;
import org.siebog.state.WriteResult;

/**
 * The Cassandra state store inside WildFly (the driver bundled in the WAR) against a real Cassandra 5.0
 * node, which the build starts before the integration tests (launcher/cassandra.sh, port 9342) and
 * stops after them. The test server gets its contact point as system properties (arquillian.xml).
 */
@ExtendWith(ArquillianExtension.class)
class StateStoreIT {

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(StateStoreIT.class);
    }

    @Inject
    StateStores stores;

    private StateStore store() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Optional<StateStore> store = stores.store();
            if (store.isPresent()) {
                return store.get();
            }
            assertFalse(stores.status().startsWith("state store unavailable"), stores::status);
            sleep(200);
        }
        throw new AssertionError("no state store after 120 s: " + stores.status());
    }

    private static <T> T await(java.util.concurrent.CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void theNodeConnectsAtStartupAndCreatingTheSchemaAgainChangesNothing() throws Exception {
        StateStore store = store();
        assertTrue(stores.status().startsWith("ready: Cassandra at 127.0.0.1:"), stores::status);
        String aid = "schema-" + UUID.randomUUID() + "@siebog";
        assertTrue(await(store.write(aid, 0, "{\"n\":1}", null)).applied());

        ((CassandraStateStore) store).createSchema();
        ((CassandraStateStore) store).createSchema();

        assertEquals(1, await(store.read(aid)).orElseThrow().version(), "the table and its rows survive");
    }

    @Test
    void aFirstWriteIsVersionOneAndReadsBack() throws Exception {
        StateStore store = store();
        String aid = "first-" + UUID.randomUUID() + "@siebog";
        assertEquals(Optional.empty(), await(store.read(aid)));

        WriteResult written = await(store.write(aid, 0, "{\"count\":1}", "device-1"));

        assertEquals(new WriteResult(true, 1), written);
        StoredState read = await(store.read(aid)).orElseThrow();
        assertEquals(aid, read.aid());
        assertEquals(1, read.version());
        assertEquals("{\"count\":1}", read.state());
        assertEquals("device-1", read.device());
        assertTrue(read.updated() != null);
    }

    @Test
    void aWriteWithAStaleVersionIsRefusedAndChangesNothing() throws Exception {
        StateStore store = store();
        String aid = "stale-" + UUID.randomUUID() + "@siebog";
        assertEquals(new WriteResult(true, 1), await(store.write(aid, 0, "v1", "device-a")));
        assertEquals(new WriteResult(true, 2), await(store.write(aid, 1, "v2", "device-a")));

        // A second first write, and a writer that still thinks version 1 is current.
        assertEquals(new WriteResult(false, 2), await(store.write(aid, 0, "late-first", "device-b")));
        assertEquals(new WriteResult(false, 2), await(store.write(aid, 1, "stale", "device-b")));
        // A writer from the future, on an agent with no state at all.
        String none = "none-" + UUID.randomUUID() + "@siebog";
        assertEquals(new WriteResult(false, 0), await(store.write(none, 5, "ahead", "device-b")));

        StoredState read = await(store.read(aid)).orElseThrow();
        assertEquals(2, read.version());
        assertEquals("v2", read.state());
        assertEquals("device-a", read.device());
        assertEquals(Optional.empty(), await(store.read(none)));
    }

    @Test
    void concurrentWritersOfOneVersionOnlyOneWins() throws Exception {
        StateStore store = store();
        String aid = "race-" + UUID.randomUUID() + "@siebog";
        assertTrue(await(store.write(aid, 0, "base", null)).applied());
        List<CompletableFuture<WriteResult>> writes = java.util.stream.IntStream.range(0, 8)
                .mapToObj(i -> store.write(aid, 1, "writer-" + i, "device-" + i).toCompletableFuture())
                .toList();
        long winners = 0;
        for (CompletableFuture<WriteResult> w : writes) {
            WriteResult r = w.get(30, TimeUnit.SECONDS);
            assertEquals(2, r.version(), r::toString);
            winners += r.applied() ? 1 : 0;
        }
        assertEquals(1, winners);
        assertEquals(2, await(store.read(aid)).orElseThrow().version());
    }

    @Test
    void aCassandraThatIsDownGivesAClearErrorSoonNotAHang() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        CassandraConfig down = new CassandraConfig(List.of(InetSocketAddress.createUnresolved("127.0.0.1", closedPort)),
                "datacenter1", "siebog_it", "SimpleStrategy:1", 4, Duration.ofSeconds(2), Duration.ofSeconds(10), null, null);

        long start = System.nanoTime();
        StateStoreException e = assertThrows(StateStoreException.class, () -> CassandraStateStore.open(down));
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

        assertTrue(e.getMessage().startsWith("cannot connect to Cassandra at 127.0.0.1:" + closedPort), e::getMessage);
        assertTrue(seconds < 20, "took " + seconds + " s");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
