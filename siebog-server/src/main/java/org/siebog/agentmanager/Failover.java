package org.siebog.agentmanager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.siebog.api.AgentKind;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.NodeLease;
import org.siebog.delivery.DelayedPosts;
import org.siebog.directory.AgentDirectory;
import org.siebog.directory.DirectoryEntry;
import org.siebog.platform.NodeEvent;
import org.siebog.platform.Setting;
import org.siebog.replication.InboxJanitor;
import org.siebog.replication.LogReader;
import org.siebog.replication.ReplicationLog;

/**
 * When nodes leave the view (stopped or killed), their agents carry on on the survivors. Every
 * survivor makes the same choice for every agent of a departed node — the survivor at index
 * {@code hash(aid) mod survivors} — so each agent is taken over exactly once, with no coordinator,
 * and a dead node's agents are spread over all the survivors.
 */
@ApplicationScoped
public class Failover {

    private static final Logger LOG = Logger.getLogger(Failover.class.getName());

    @Inject
    AgentDirectory directory;

    @Inject
    LocalAgents local;

    @Inject
    ClusterNode cluster;

    @Inject
    ReplicationLog log;

    @Inject
    InboxJanitor janitor;

    @Inject
    DelayedPosts delayed;

    /**
     * Takeovers at once per view change ({@code siebog.failover.parallelism}, default 128). A
     * takeover is mostly waiting on cache reads and writes, so many run well on few cores: the
     * container's default executor runs only a handful at a time, which made the last of 50
     * agents wait two seconds behind the others, and 32 at once still left 18 of them for a
     * second round.
     */
    static final int PARALLELISM = Setting.FAILOVER_PARALLELISM.intValue();
    /** The first and the longest pause between attempts of a rejoining that failed. */
    private static final long REJOIN_RETRY_FIRST_MS = 250;
    private static final long REJOIN_RETRY_LAST_MS = 4_000;
    /** How long a rejoining node waits for the others to take over what still names it. */
    private static final long REJOIN_PATIENCE_MS = 60_000;
    /**
     * How long a rejoining node waits for the others to take over its delayed posts: they do within
     * a lease of seeing it leave the node list, but a post that a merge kept from this node's side
     * (stored there as the cut began) was never theirs to see, and waiting a minute for it would keep
     * the node out that long.
     */
    private static final long POSTS_PATIENCE_MS = 10_000;
    /**
     * How long a takeover waits for the others to show views without the departed nodes: they do
     * within a heartbeat of installing them, and a member that does not answer at all leaves the
     * view within the failure detector's timeout.
     */
    private static final long LEASE_PATIENCE_MS = 30_000;

    @Resource
    ManagedThreadFactory threads;

    @Inject
    MeterRegistry meters;

    @Inject
    Event<NodeEvent> events;

    private Counter takenOver;
    private Timer failoverTime;

    @PostConstruct
    void meters() {
        takenOver = Counter.builder("siebog.failover.agents")
                .description("Agents of departed nodes this node took over").register(meters);
        failoverTime = Timer.builder("siebog.failover.duration")
                .description("From a view without some nodes to this node's share of their agents running again")
                .serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
                        Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30))
                .register(meters);
    }

    /**
     * Called with each new member list, in view order. Any agent the directory places on a node
     * that is not a member is an orphan: its node left (whether this node saw it join or not).
     */
    public synchronized void onView(List<String> members) {
        if (members.isEmpty()) {
            return;
        }
        NodeLease lease = cluster.lease();
        if (lease.mustRejoin()) {
            lease.rejoining(); // at once, on this thread: nothing is admitted or handled from here on
            threads.newThread(this::rejoin).start();
            return;
        }
        if (!lease.quorate() || lease.forfeited() || lease.rejoiningNow()) {
            LOG.info(() -> cluster.name() + " takes over no agents: " + lease.refusal().getMessage());
            return;
        }
        long began = System.nanoTime();
        janitor.sweepSoon();
        Set<String> departed = new HashSet<>();
        List<DirectoryEntry> mine = new ArrayList<>();
        for (DirectoryEntry entry : directory.all()) {
            if (members.contains(entry.node())) {
                continue;
            }
            departed.add(entry.node());
            if (isMine(entry.aid().toString(), members)) {
                mine.add(entry);
            }
        }
        Set<String> holders = delayed.departedHolders(members); // of delayed posts, each taken over by the survivor its key names
        Set<String> waitFor = new HashSet<>(departed);
        waitFor.addAll(holders);
        if ((!mine.isEmpty() || !holders.isEmpty()) && !awaitLeasesEnd(lease, waitFor)) {
            LOG.warning(() -> cluster.name() + " takes over none of the " + mine.size() + " agents of " + departed + " now: "
                    + (lease.holds() ? "it could not tell within " + LEASE_PATIENCE_MS / 1000 + " s that their leases had ended (the other"
                            + " members did not show views without them); it looks again at the next view" : lease.refusal().getMessage()));
            return;
        }
        // No read of the log up front: each takeover reads its own agent's segments, sharing what
        // the others have fetched already, so the first agents are back before the log is read.
        LogReader logged = log.reader();
        List<CompletableFuture<Void>> takeovers = new ArrayList<>();
        ExecutorService workers = Executors.newFixedThreadPool(Math.max(1, Math.min(mine.size(), PARALLELISM)), threads);
        try {
            for (DirectoryEntry entry : mine) {
                takeovers.add(CompletableFuture.runAsync(() -> takeOver(entry, logged), workers).exceptionally(e -> {
                    LOG.log(Level.SEVERE, e, () -> "could not take over " + entry.aid() + " from " + entry.node());
                    return null;
                }));
            }
            CompletableFuture.allOf(takeovers.toArray(CompletableFuture[]::new)).join();
        } finally {
            workers.shutdown();
        }
        if (!holders.isEmpty()) {
            int taken = delayed.takeOver(members, key -> isMine(key, members));
            LOG.info(() -> cluster.name() + " took over " + taken + " delayed posts of " + holders);
        }
        int n = takeovers.size();
        if (departed.isEmpty()) {
            return;
        }
        long took = System.nanoTime() - began;
        failoverTime.record(took, TimeUnit.NANOSECONDS);
        takenOver.increment(n);
        events.fire(NodeEvent.now(NodeEvent.Type.FAILOVER, cluster.name(), Map.of("departed", String.join(",", new TreeSet<>(departed)),
                "agents", Integer.toString(n), "ms", Long.toString(TimeUnit.NANOSECONDS.toMillis(took)))));
        LOG.info(() -> String.format("nodes %s left; %s took over %d of their agents in %.0f ms",
                departed, cluster.name(), n, took / 1e6));
    }

    /**
     * Waits until this node's view is settled ({@link NodeLease#settled}) and the departed nodes'
     * leases have surely ended ({@link NodeLease#surelyExpiredAt}), both of which the others' answers
     * to this node's heartbeats may have to show first: a node that is only
     * cut off or paused may still be handling messages until then, and an agent must never run in two
     * places. False if that took longer than {@link #LEASE_PATIENCE_MS}, or this node stopped holding
     * its own lease meanwhile.
     */
    private static boolean awaitLeasesEnd(NodeLease lease, Set<String> departed) {
        long began = System.nanoTime();
        boolean told = false;
        while (true) {
            if (!lease.quorate() || lease.mustRejoin() || lease.rejoiningNow()) {
                return false; // it lost touch itself meanwhile: it takes nothing over
            }
            long now = System.nanoTime();
            long until = lease.settled() ? departed.stream().mapToLong(lease::surelyExpiredAt).max().orElse(now) : Long.MAX_VALUE;
            if (until - now <= 0 && lease.holds()) {
                return true;
            }
            if (now - began > TimeUnit.MILLISECONDS.toNanos(LEASE_PATIENCE_MS)) {
                return false;
            }
            if (!told) {
                told = true;
                LOG.info(() -> until == Long.MAX_VALUE ? "waiting for a quorum of the view to answer with it, and to leave " + departed + " out"
                        : String.format("waiting %.0f ms for the leases of %s to end before taking over their agents", (until - now) / 1e6, departed));
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.max(1, Math.min(until - now, TimeUnit.MILLISECONDS.toNanos(50))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /**
     * This node lost touch with the cluster (it lost the quorum, or its lease ran out while the view
     * changed) and is back: the others may have taken over its agents, so it gives them all up, takes
     * itself off the node list so that the others take over whatever still names it (agents, delayed
     * posts), waits until nothing does, and comes back as an empty member. It admits and handles nothing meanwhile.
     */
    private void rejoin() {
        long pause = REJOIN_RETRY_FIRST_MS;
        while (true) {
            try {
                rejoinOnce();
                return;
            } catch (RuntimeException e) {
                // A cache write that timed out while the views were still merging (Infinispan waits
                // 17.5 s for an answer: PartitionIT's even split saw one for the node list) must not
                // leave the node rejoining, acting for nobody, for good. Each step may run again.
                LOG.log(Level.WARNING, cluster.name() + " could not rejoin the cluster; it tries again in " + pause + " ms", e);
            }
            if (cluster.lease().mustRejoin()) {
                return; // it lost touch again meanwhile: the next view starts its rejoining afresh
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pause = Math.min(2 * pause, REJOIN_RETRY_LAST_MS);
        }
    }

    private void rejoinOnce() {
        long began = System.nanoTime();
        int dropped = local.dropAll();
        if (!retakeCopies()) {
            return;
        }
        delayed.rejoining();
        cluster.unregister();
        long agents;
        long posts;
        while (true) {
            agents = agentsNamingThisNode().size();
            posts = delayed.heldBy(cluster.name());
            long waited = System.nanoTime() - began;
            if (agents == 0 && (posts == 0 || waited > TimeUnit.MILLISECONDS.toNanos(POSTS_PATIENCE_MS))
                    || waited > TimeUnit.MILLISECONDS.toNanos(REJOIN_PATIENCE_MS)) {
                break;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (posts > 0) {
            // Its own timers were forgotten with the rest: were it to leave its posts as they are, nobody would fire them.
            int fired = delayed.fireHeld();
            LOG.info(() -> fired + " delayed posts still name " + cluster.name() + " after " + POSTS_PATIENCE_MS / 1000 + " s of rejoining"
                    + " (a merge kept its side's copy of them): it fires them itself once it is back");
        }
        if (agents > 0) {
            List<String> stranded = agentsNamingThisNode().stream().limit(20).toList();
            LOG.severe(() -> "agents " + stranded + " still name " + cluster.name() + " after " + REJOIN_PATIENCE_MS / 1000
                    + " s of rejoining: no other node took them over; " + cluster.name() + " rejoins without them");
        }
        log.rejoined();
        cluster.register();
        cluster.lease().rejoined();
        long took = System.nanoTime() - began;
        events.fire(NodeEvent.now(NodeEvent.Type.NODE_REJOINED, cluster.name(), Map.of("dropped", Integer.toString(dropped),
                "ms", Long.toString(TimeUnit.NANOSECONDS.toMillis(took)))));
        LOG.warning(() -> String.format("%s rejoined the cluster empty: dropped %d agents (the others carry them on), %.0f ms",
                cluster.name(), dropped, took / 1e6));
    }

    /**
     * Takes this node's copies of the caches again if it dropped them (its side of a split was left
     * behind: cluster's LocalCopies), trying again every second while the others cannot hand them over
     * yet (a cache's start fails when its members do not answer in time). False if interrupted: the
     * node is going away.
     */
    private boolean retakeCopies() {
        while (true) {
            try {
                cluster.retakeCopies();
                return true;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, cluster.name() + " could not take its copies of the caches again yet; it tries again in a second", e);
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** The agents the directory still places on this node, by name. */
    private List<String> agentsNamingThisNode() {
        return directory.all().stream().filter(e -> e.node().equals(cluster.name())).map(e -> e.aid().toString()).toList();
    }

    /**
     * Whether this node is the survivor that takes over what {@code key} names (an agent, a delayed
     * post), of {@code members}: the same choice on every node.
     */
    private boolean isMine(String key, List<String> members) {
        return members.get(Math.floorMod(key.hashCode(), members.size())).equals(cluster.name());
    }

    private void takeOver(DirectoryEntry entry, LogReader logged) {
        List<String> members = cluster.members();
        if (members.contains(entry.node()) || !isMine(entry.aid().toString(), members)) {
            // The view changed again while this node waited out the leases (two nodes dying a moment apart): the
            // agent is another survivor's to take over now, or its node is back.
            return;
        }
        if (entry.kind() != AgentKind.STATELESS) { // a client agent's proxy is replicated as a stateful agent is
            switch (local.resume(entry, logged)) {
                case HERE -> { }
                case ELSEWHERE -> LOG.info(() -> "another survivor claimed " + entry.aid() + " first; it runs there");
                case GONE -> {
                    LOG.warning(() -> entry.aid() + " died before it had finished starting; it is gone");
                    directory.unregister(entry.aid());
                }
            }
        } else {
            // Stateless: nothing to restore. A pinned one runs here now (its instance made before the directory
            // sends its messages here); a balanced one is listed here, and each node makes its instance when it needs one.
            DirectoryEntry here = entry.movedTo(cluster.name());
            if (entry.pinned()) {
                local.instanceOf(here);
            }
            directory.update(here);
        }
    }
}
