package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.api.AID;
import org.siebog.state.CassandraConfig;
import org.siebog.state.CassandraStateStore;
import org.siebog.state.SavedState;
import org.siebog.state.StateManager;
import org.siebog.state.StateRefusedException;
import org.siebog.state.StateStore;
import org.siebog.state.StateStoreException;
import org.siebog.state.StateStores;
import org.siebog.state.StoredState;

/**
 * The state store and the versioning rule (StateManager) inside WildFly (the driver bundled in the WAR) against a real Cassandra 5.0
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

    @Inject
    StateManager states;

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
        await(store.write(aid, 1, "{\"n\":1}", null));

        ((CassandraStateStore) store).createSchema();
        ((CassandraStateStore) store).createSchema();

        assertEquals(1, await(store.read(aid)).orElseThrow().version(), "the table and its rows survive");
    }

    @Test
    void aWriteReadsBackWithItsVersionAndDevice() throws Exception {
        StateStore store = store();
        String aid = "first-" + UUID.randomUUID() + "@siebog";
        assertEquals(Optional.empty(), await(store.read(aid)));

        await(store.write(aid, 1, "{\"count\":1}", "device-1"));

        StoredState read = await(store.read(aid)).orElseThrow();
        assertEquals(aid, read.aid());
        assertEquals(1, read.version());
        assertEquals("{\"count\":1}", read.state());
        assertEquals("device-1", read.device());
        assertTrue(read.updated() != null);
    }

    @Test
    void aWriteThatArrivesLateNeverReplacesANewerVersion() throws Exception {
        StateStore store = store();
        String aid = "late-" + UUID.randomUUID() + "@siebog";
        await(store.write(aid, 2, "v2", "device-b"));
        await(store.write(aid, 1, "v1, delayed", "device-a"));

        StoredState read = await(store.read(aid)).orElseThrow();
        assertEquals(2, read.version());
        assertEquals("v2", read.state());
        assertEquals("device-b", read.device());

        await(store.write(aid, 3, null, null));
        StoredState cleared = await(store.read(aid)).orElseThrow();
        assertEquals(3, cleared.version());
        assertNull(cleared.state(), "cleared");
    }

    @Test
    void ofConcurrentSavesOfOneVersionExactlyOneWinsAndItIsTheOneStored() throws Exception {
        store();
        AID aid = new AID("race-" + UUID.randomUUID(), "siebog");
        assertEquals(1L, await(states.save(aid, 0, "\"base\"", "device-0")));

        List<CompletableFuture<Long>> saves = IntStream.range(0, 8)
                .mapToObj(i -> states.save(aid, 1, "\"writer-" + i + "\"", "device-" + i).toCompletableFuture())
                .toList();
        List<String> winners = new ArrayList<>();
        for (int i = 0; i < saves.size(); i++) {
            try {
                assertEquals(2L, saves.get(i).get(30, TimeUnit.SECONDS));
                winners.add("\"writer-" + i + "\"");
            } catch (ExecutionException e) {
                StateRefusedException refused = (StateRefusedException) rootOf(e);
                assertEquals(409, refused.status());
                assertEquals(2L, refused.version());
            }
        }
        assertEquals(1, winners.size(), winners::toString);
        SavedState saved = await(states.load(aid));
        assertEquals(new SavedState(2, winners.get(0)), saved);
    }

    @Test
    void aSaveNamingAnOldVersionIsRefusedAndChangesNothing() throws Exception {
        store();
        AID aid = new AID("stale-" + UUID.randomUUID(), "siebog");
        await(states.save(aid, 0, "{\"n\":1}", "device-a"));
        await(states.save(aid, 1, "{\"n\":2}", "device-a"));

        for (long stale : new long[] {0, 1, 5}) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> states.save(aid, stale, "{\"n\":99}", "device-b").toCompletableFuture().get(30, TimeUnit.SECONDS));
            StateRefusedException refused = (StateRefusedException) rootOf(e);
            assertEquals(409, refused.status());
            assertEquals(2L, refused.version());
            assertTrue(refused.getMessage().contains("is at version 2, not " + stale), refused::getMessage);
        }
        assertEquals(new SavedState(2, "{\"n\":2}"), await(states.load(aid)));
    }

    @Test
    void clearingLeavesAnEmptyStateThatANewAgentOfTheNameStartsFrom() throws Exception {
        store();
        AID aid = new AID("cleared-" + UUID.randomUUID(), "siebog");
        await(states.save(aid, 0, "[1,2,3]", "device-a"));

        states.clear(aid);

        SavedState after = awaitUntil(() -> await(states.load(aid)), s -> s.state() == null);
        assertEquals(new SavedState(2, null), after);
        assertEquals(3L, await(states.save(aid, 2, "[4]", "device-b")), "saving goes on from the cleared version");
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

    private static Throwable rootOf(Throwable e) {
        Throwable t = e;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private interface Read<T> {
        T get() throws Exception;
    }

    private static <T> T awaitUntil(Read<T> read, java.util.function.Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        T value = read.get();
        while (!done.test(value) && System.nanoTime() < deadline) {
            sleep(100);
            value = read.get();
        }
        return value;
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
