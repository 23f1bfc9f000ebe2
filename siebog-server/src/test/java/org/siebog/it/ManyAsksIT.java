package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.siebog.it.SiebogApi.message;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;

import org.infinispan.Cache;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.api.AID;
import org.siebog.api.AgentManager;
import org.siebog.delivery.AgentHost;
import org.siebog.directory.StringCaches;
import org.siebog.it.SiebogApi.Reply;
import org.siebog.replication.AgentJournal;
import org.siebog.replication.AgentRecord;
import org.siebog.replication.ReplicationLog;

/**
 * 100,000 REST asks ({@code POST /messages?awaitReplyMs}) to one stateful agent, each with a reply
 * inbox of its own: the agent's saved record and its journal's maps stay the size they had after
 * the first 1,000 asks, and every ask is handled exactly once (the answers are the counts 1 to
 * 100,000, each once). The asks are made from the client, the sizes are read in the server (the
 * record's bytes in the {@code agent-state} cache, the journal through the agent's mailbox), in
 * that order.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ManyAsksIT {

    private static final Logger LOG = Logger.getLogger(ManyAsksIT.class.getName());
    private static final String NAME = "tally";
    private static final int WARM_UP = 1_000;
    private static final int ASKS = 100_000;
    /** Parallel askers: enough to keep two cores busy, far under the test server's mailbox capacity (50). */
    private static final int ASKERS = 16;

    @Deployment
    static EnterpriseArchive deployment() {
        return SiebogDeployment.earWithTests(ManyAsksIT.class, SiebogApi.class);
    }

    // In the server:
    @Resource(lookup = "java:jboss/infinispan/cache/siebog/agent-state")
    Cache<String, byte[]> states;

    @Inject
    ReplicationLog log;

    @Inject
    AgentHost host;

    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    /** The server's measure after the warm-up, kept for the last step (same deployment, same class). */
    private static Footprint afterWarmUp;

    // On the client:
    private final SiebogApi siebog = SiebogApi.testServer();

    /** What the agent's replication holds: its saved record in bytes, the maps in it, and its journal's maps. */
    record Footprint(int recordBytes, int sentCounters, int handledOrigins, long handledSeq, AgentJournal.Footprint live) {
    }

    @Test
    @Order(1)
    @RunAsClient
    void theFirstThousandAsksAreEachAnsweredOnce() throws Exception {
        siebog.startAgent("Tally", NAME);
        BitSet answers = ask(WARM_UP);
        assertEquals(WARM_UP, answers.cardinality(), "each ask handled once: the counts 1.." + WARM_UP);
        assertEquals(WARM_UP, answers.length() - 1);
    }

    @Test
    @Order(2)
    void afterThemTheRecordIsMeasured() {
        afterWarmUp = footprintOnceSaved(WARM_UP);
        LOG.info("after " + WARM_UP + " asks: " + afterWarmUp);
    }

    @Test
    @Order(3)
    @RunAsClient
    void ninetyNineThousandMoreAreEachAnsweredOnce() throws Exception {
        long began = System.nanoTime();
        BitSet answers = ask(ASKS - WARM_UP);
        LOG.info(String.format("%,d asks in %.1f s", ASKS - WARM_UP, (System.nanoTime() - began) / 1e9));
        assertEquals(ASKS - WARM_UP, answers.cardinality(), "each ask handled once");
        assertEquals(WARM_UP + 1, answers.nextSetBit(0), "counting on from the warm-up");
        assertEquals(ASKS, answers.length() - 1);
    }

    @Test
    @Order(4)
    void theRecordAndTheMapsHaveNotGrown() {
        Footprint after = footprintOnceSaved(ASKS);
        agents.stop(AID.parse(SiebogApi.aid(NAME))); // the test server goes on to other tests
        LOG.info("after " + ASKS + " asks: " + after + " (after " + WARM_UP + ": " + afterWarmUp + ")");
        assertEquals(0, after.sentCounters(), "the agent keeps no counter for the asks' reply inboxes");
        assertEquals(afterWarmUp.handledOrigins(), after.handledOrigins(), "origins in the record");
        assertEquals(afterWarmUp.live(), after.live(), "the journal's origins and counters");
        assertEquals(0, after.live().receiverCounters());
        // The count is a long in the state: the record's bytes do not depend on it.
        assertTrue(after.recordBytes() <= afterWarmUp.recordBytes(), () -> "the record grew from " + afterWarmUp + " to " + after);
    }

    /** Asks the agent {@code n} times from {@link #ASKERS} threads; returns the counts it answered. */
    private BitSet ask(int n) throws Exception {
        String tally = SiebogApi.aid(NAME);
        String question = message("REQUEST").to(tally).content("count").json().toString();
        AtomicInteger left = new AtomicInteger(n);
        BitSet answers = new BitSet();
        ExecutorService askers = Executors.newFixedThreadPool(ASKERS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < ASKERS; i++) {
                running.add(askers.submit(() -> {
                    while (left.getAndDecrement() > 0) {
                        Reply answer = siebog.post("messages?awaitReplyMs=30000", question);
                        assertEquals(200, answer.status(), answer::toString);
                        int count = Integer.parseInt(answer.object().getString("content"));
                        synchronized (answers) {
                            assertTrue(!answers.get(count), () -> "the count " + count + " was answered twice");
                            answers.set(count);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> asker : running) {
                asker.get(10, TimeUnit.MINUTES);
            }
        } finally {
            askers.shutdownNow();
        }
        return answers;
    }

    /** Waits for the record saved after the agent's {@code handled}-th message (saves come at most a second apart). */
    private Footprint footprintOnceSaved(long handled) {
        AID tally = AID.parse(SiebogApi.aid(NAME));
        long deadline = System.currentTimeMillis() + SiebogApi.PATIENCE.toMillis();
        for (;;) {
            AgentRecord record = log.load(tally).orElseThrow();
            if (record.handledSeq() >= handled) {
                byte[] bytes = StringCaches.raw(states).get(tally.toString());
                AgentJournal journal = (AgentJournal) host.mailbox(tally).journal();
                return new Footprint(bytes.length, record.sent().entries().size(), record.handled().size(), record.handledSeq(),
                        journal.footprint());
            }
            if (System.currentTimeMillis() > deadline) {
                fail("no record of " + tally + " covering " + handled + " messages; the last covers " + record.handledSeq());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
