package org.siebog.replication;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.infinispan.functional.FunctionalMap;
import org.infinispan.functional.impl.FunctionalMapImpl;
import org.infinispan.functional.impl.WriteOnlyMapImpl;
import org.infinispan.marshall.core.MarshallableFunctions;
import org.siebog.agent.AID;
import org.siebog.delivery.Envelope;
import org.siebog.directory.StringCaches;
import org.siebog.message.ACLMessageJson;
import org.siebog.message.MessageId;

/**
 * Writes what failover needs into two distributed caches with two owners each, so one node's
 * death loses none of it: every message admitted to a stateful agent ({@code inbox}, key
 * {@code aid#seq}) before the agent sees it, and the agent's {@link AgentRecord} after it has handled
 * some ({@code agent-state}), after which the inbox entries it covers are removed.
 *
 * <p>Each cache has one writer thread that takes everything queued since its last write into one
 * {@code putAll}: one replication round trip for hundreds of messages under load, and no waiting
 * for a batch to fill at low load. Inbox writes complete in the order they were queued.
 */
@ApplicationScoped
public class ReplicationLog {

    private static final Logger LOG = Logger.getLogger(ReplicationLog.class.getName());
    private static final int MAX_BATCH = 1024;

    private AdvancedCache<String, String> inbox;
    private AdvancedCache<String, String> states;

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/inbox")
    void setInbox(Cache<String, String> injected) {
        inbox = StringCaches.raw(injected);
    }

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/agent-state")
    void setStates(Cache<String, String> injected) {
        states = StringCaches.raw(injected);
    }

    @Resource
    ManagedThreadFactory threads;

    private record InboxWrite(String key, String value, CompletableFuture<Void> written) {
    }

    private record StateWrite(AID aid, AgentRecord record, long removeFrom, long removeTo) {
    }

    private final BlockingQueue<InboxWrite> inboxWrites = new LinkedBlockingQueue<>();
    private final BlockingQueue<StateWrite> stateWrites = new LinkedBlockingQueue<>();
    private volatile boolean running = true;
    private final List<Thread> writers = new ArrayList<>();

    @PostConstruct
    void startWriters() {
        writers.add(threads.newThread(this::writeInbox));
        writers.add(threads.newThread(this::writeStates));
        writers.get(0).setName("siebog-inbox-writer");
        writers.get(1).setName("siebog-state-writer");
        writers.forEach(Thread::start);
    }

    @PreDestroy
    void stopWriters() {
        running = false;
        writers.forEach(Thread::interrupt);
    }

    /** Completes once the message is held by two nodes. */
    public CompletableFuture<Void> append(AID aid, long seq, MessageId id, String messageJson) {
        CompletableFuture<Void> written = new CompletableFuture<>();
        inboxWrites.add(new InboxWrite(inboxKey(aid, seq), id.origin() + "\n" + id.counter() + "\n" + messageJson, written));
        return written;
    }

    /** Saves the record (later records of one agent overwrite earlier ones) and drops inbox entries it covers. */
    void save(AID aid, AgentRecord record, long coveredFrom, long coveredTo) {
        stateWrites.add(new StateWrite(aid, record, coveredFrom, coveredTo));
    }

    /** Saves the record now (an agent that has just started), returning once it is replicated. */
    void saveNow(AID aid, AgentRecord record) {
        states.withFlags(Flag.IGNORE_RETURN_VALUES).put(aid.toString(), record.encode());
    }

    public Optional<AgentRecord> load(AID aid) {
        String encoded = states.get(aid.toString());
        return encoded == null ? Optional.empty() : Optional.of(AgentRecord.decode(encoded));
    }

    /** The logged messages after {@code handledSeq}, in order, up to the first position never written. */
    public List<Envelope> pending(AID aid, long handledSeq) {
        List<Envelope> pending = new ArrayList<>();
        for (long next = handledSeq + 1;; next += 256) {
            Set<String> keys = new HashSet<>();
            for (long seq = next; seq < next + 256; seq++) {
                keys.add(inboxKey(aid, seq));
            }
            Map<String, String> found = inbox.getAll(keys);
            for (long seq = next; seq < next + 256; seq++) {
                String value = found.get(inboxKey(aid, seq));
                if (value == null) {
                    return pending;
                }
                String[] parts = value.split("\n", 3);
                pending.add(new Envelope(new MessageId(parts[0], Long.parseLong(parts[1])), seq, ACLMessageJson.read(parts[2])));
            }
        }
    }

    /** Forgets a stopped agent. */
    public void forget(AID aid, long handledSeq, long lastSeq) {
        states.withFlags(Flag.IGNORE_RETURN_VALUES).remove(aid.toString());
        removeInbox(inboxKeys(aid, handledSeq + 1, lastSeq));
    }

    private void writeInbox() {
        List<InboxWrite> batch = new ArrayList<>(MAX_BATCH);
        while (running) {
            try {
                batch.add(inboxWrites.take());
                inboxWrites.drainTo(batch, MAX_BATCH - 1);
                Map<String, String> entries = new LinkedHashMap<>();
                batch.forEach(w -> entries.put(w.key(), w.value()));
                inbox.withFlags(Flag.IGNORE_RETURN_VALUES).putAll(entries);
                batch.forEach(w -> w.written().complete(null));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not replicate " + batch.size() + " admitted messages", e);
                batch.forEach(w -> w.written().completeExceptionally(e));
            }
            batch.clear();
        }
    }

    private void writeStates() {
        List<StateWrite> batch = new ArrayList<>(MAX_BATCH);
        while (running) {
            try {
                batch.add(stateWrites.take());
                stateWrites.drainTo(batch, MAX_BATCH - 1);
                Map<String, String> latest = new HashMap<>();
                Map<AID, long[]> covered = new HashMap<>();
                for (StateWrite w : batch) {
                    latest.put(w.aid().toString(), w.record().encode());
                    covered.merge(w.aid(), new long[] {w.removeFrom(), w.removeTo()},
                            (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
                }
                states.withFlags(Flag.IGNORE_RETURN_VALUES).putAll(latest);
                Set<String> handled = new HashSet<>();
                covered.forEach((aid, range) -> handled.addAll(inboxKeys(aid, range[0], range[1])));
                removeInbox(handled);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not replicate the state of " + batch.size() + " agents", e);
            }
            batch.clear();
        }
    }

    private static Set<String> inboxKeys(AID aid, long from, long to) {
        Set<String> keys = new HashSet<>();
        for (long seq = from; seq <= to; seq++) {
            keys.add(inboxKey(aid, seq));
        }
        return keys;
    }

    /** One command per owner for all of them (entries left behind by a failure are overwritten or dropped later). */
    private void removeInbox(Set<String> keys) {
        if (keys.isEmpty()) {
            return;
        }
        FunctionalMap.WriteOnlyMap<String, String> writeOnly = WriteOnlyMapImpl.create(FunctionalMapImpl.create(inbox));
        writeOnly.evalMany(keys, MarshallableFunctions.removeConsumer()).exceptionally(e -> {
            LOG.log(Level.FINE, "could not drop " + keys.size() + " handled inbox entries", e);
            return null;
        });
    }

    private static String inboxKey(AID aid, long seq) {
        return aid + "#" + seq;
    }
}
