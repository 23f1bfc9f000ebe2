package org.siebog.replication;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.AID;
import org.siebog.cluster.ClusterNode;
import org.siebog.directory.AgentDirectory;

/**
 * Drops the inbox segments that no live journal will release: those written by a node that has
 * left (its agents were taken over and the survivors save their states) and by an earlier boot of
 * this node. A segment goes only when every message in it is covered by its agent's saved record
 * (same incarnation, handled position at or past it) or belongs to an agent that no longer exists;
 * so a sweep can never drop a message that a takeover still needs. Such a writer's
 * {@link WriterManifest} goes once none of its segments is left: a reader then finds nothing to
 * read from that writer, which is what is left.
 */
@ApplicationScoped
public class InboxJanitor {

    private static final Logger LOG = Logger.getLogger(InboxJanitor.class.getName());
    private static final long SWEEP_DELAY_S = 10;

    @Inject
    ReplicationLog log;

    @Inject
    AgentDirectory directory;

    @Inject
    ClusterNode cluster;

    @Resource
    ManagedScheduledExecutorService timer;

    private final AtomicBoolean scheduled = new AtomicBoolean();

    /** Sweeps in a while (once takeovers have saved), and again while orphaned segments are left. */
    public void sweepSoon() {
        if (scheduled.compareAndSet(false, true)) {
            timer.schedule(this::sweep, SWEEP_DELAY_S, TimeUnit.SECONDS);
        }
    }

    private void sweep() {
        scheduled.set(false);
        int left = 0;
        try {
            Map<AID, Optional<AgentRecord>> records = new HashMap<>();
            Set<String> manifests = new HashSet<>();
            Set<String> writersLeft = new HashSet<>();
            for (Map.Entry<String, byte[]> entry : log.allEntries().entrySet()) {
                String key = entry.getKey();
                if (!orphaned(key)) {
                    continue;
                }
                if (LogKeys.isManifest(key)) {
                    manifests.add(key);
                } else if (SegmentCodec.decode(entry.getValue()).stream().allMatch(m -> obsolete(m, records))) {
                    log.remove(key);
                } else {
                    left++;
                    writersLeft.add(LogKeys.writerOf(key));
                }
            }
            for (String manifest : manifests) {
                if (!writersLeft.contains(LogKeys.writerOf(manifest))) {
                    log.remove(manifest);
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not sweep the inbox log", e);
            left++;
        }
        if (left > 0) {
            sweepSoon();
        }
    }

    /** Written by a node that is not a member, or by an earlier boot of this one. */
    private boolean orphaned(String key) {
        String node = LogKeys.nodeOf(key);
        return !cluster.members().contains(node) || (node.equals(cluster.name()) && !log.ownKey(key));
    }

    private boolean obsolete(SegmentCodec.Entry m, Map<AID, Optional<AgentRecord>> records) {
        Optional<AgentRecord> record = records.computeIfAbsent(m.aid(), log::load);
        if (record.isPresent()) {
            // A record of another incarnation: the agent these messages were for has stopped.
            return record.get().incarnation() != m.incarnation() || record.get().handledSeq() >= m.seq();
        }
        return directory.lookup(m.aid()).isEmpty(); // no record yet: only an agent still starting keeps its messages
    }
}
