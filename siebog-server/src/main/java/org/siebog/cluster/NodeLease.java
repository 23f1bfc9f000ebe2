package org.siebog.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.logging.Logger;

import org.siebog.api.RemoteNodeException;
import org.siebog.platform.Setting;

/**
 * This node's right to admit and handle messages for its agents: it holds it while its view holds
 * the {@link Quorum} and, when it has company, while a quorum of its view has answered its heartbeat
 * within the last {@link #LEASE_MS} — and the others take over a departed node's agents only once
 * the lease it could still believe in has surely run out ({@link #surelyExpiredAt}). So a node cut
 * off from the majority, or paused (a long GC, a frozen VM, SIGSTOP), has stopped before anyone else
 * starts its agents: when a paused node wakes up, its clock has moved on and its first look at the
 * lease tells it to stop, before its JGroups stack has even noticed that the view changed.
 *
 * <p>A heartbeat's answer renews the lease only when the asking node is in the answering node's view, and
 * the lease runs from when the heartbeat was <em>sent</em>: the answering node records when it
 * answered, which is after that, and waits from there. Both measure with their own monotonic clocks,
 * whose rates agree far better than the {@link #MARGIN_MS} allows for.
 *
 * <p>A view is not yet proof that its members can talk to each other: while a network splits, a node
 * on the far side may sit in both sides' views for a few seconds (a cut made link by link, a failure
 * detector that suspects some nodes before others). So a view is <em>settled</em> only once a quorum
 * of its members has answered a heartbeat with that very view ({@link #settled}); only then does it
 * become the new reference for the quorum, and only a settled node acts for the cluster: takes over
 * departed nodes' agents, takes them off the node list, or tells a node it was left out. A side of
 * three that counted a node it could not reach had taken the other side's agents over and told the
 * majority it was left out (perf/chaos, a 2|3 cut).
 *
 * <p>A node that lost the quorum, or whose lease had run out when a view changed, may have had its
 * agents taken over: it has <em>forfeited</em> them. When it is back in a view that holds the
 * quorum it rejoins empty (agentmanager's {@code Failover.rejoin}): it drops its instances, leaves the
 * node list so that the others take over whatever still names it, and comes back as a new member.
 */
public final class NodeLease {

    private static final Logger LOG = Logger.getLogger(NodeLease.class.getName());
    static final long LEASE_MS = Setting.CLUSTER_LEASE_MS.longValue();
    /** Heartbeats per lease: a few lost or slow ones do not end it. */
    private static final long HEARTBEAT_MS = Math.max(50, LEASE_MS / 6);
    /** Waited beyond a departed node's lease: for the two clocks' rates and the answer's way back. */
    static final long MARGIN_MS = Math.max(250, LEASE_MS / 4);
    private static final long LEASE_NANOS = TimeUnit.MILLISECONDS.toNanos(LEASE_MS);

    private final String self;
    /** {@link System#nanoTime()}, or a test's clock. */
    private final LongSupplier clock;
    private Quorum quorum; // guarded by this
    private volatile List<String> members;
    private volatile boolean quorate = true;
    private volatile boolean alone = true;
    private volatile long leaseUntil;
    private volatile boolean forfeited;
    private volatile boolean rejoining;
    private volatile int epoch;
    /** True once a quorum of the reference has answered with the current view ({@link #settled}). */
    private volatile boolean settled;
    /** True while {@link LinkProbes} keeps this node out of the cluster: its lease runs out as the others stop answering. */
    private volatile boolean keptOut;
    /** The members that have answered with the current view, this node first; null once it is settled. */
    private Set<String> confirmedBy; // guarded by this
    /** The sessions of the nodes that left the view since it was last settled: left out only if the next settled view lacks them. */
    private final Map<String, Long> unsettledDepartures = new HashMap<>(); // guarded by this
    /** This membership of the node's: a new one each time it rejoins (a heartbeat names it). */
    private volatile long session = ThreadLocalRandom.current().nextLong();
    /** Called when an answer tells this node it was left out meanwhile ({@link #forfeit}), or settles its view. */
    private volatile Runnable onVerdict = () -> { };
    /**
     * When this node last said yes to each member's heartbeat, or saw it join (nanoTime). Keyed by
     * node names, which the cluster's configuration bounds.
     */
    private final Map<String, Long> answered = new ConcurrentHashMap<>();
    /** When each node left this node's view (nanoTime). */
    private final Map<String, Long> leftAt = new ConcurrentHashMap<>();
    /** The session each member last named in its heartbeat here, while in this node's view. */
    private final Map<String, Long> sessions = new ConcurrentHashMap<>();
    /** The session each departed node had when it left this node's view: it is never renewed again here. */
    private final Map<String, Long> leftOutSessions = new ConcurrentHashMap<>();
    /** The quorum each departed node measured itself against when it left this node's view. */
    private final Map<String, Quorum> departedFrom = new ConcurrentHashMap<>();
    /**
     * Per member (the outer key), since when (nanoTime of the first such answer here) its answers have
     * shown a view without each node (the inner key): from then on it renews nothing of that node's.
     */
    private final Map<String, Map<String, Long>> leftOutBy = new ConcurrentHashMap<>();

    NodeLease(String self) {
        this(self, System::nanoTime);
    }

    NodeLease(String self, LongSupplier clock) {
        this.self = self;
        this.clock = clock;
        this.members = List.of(self);
        this.quorum = new Quorum(members);
        this.leaseUntil = clock.getAsLong();
        this.settled = true;
    }

    /** True while this node may admit and handle messages for its agents. Cheap: asked before every message. */
    public boolean holds() {
        return quorate && !forfeited && !rejoining && (alone || clock.getAsLong() - leaseUntil < 0);
    }

    /** Why this node admits nothing now, for the 503 its API answers (and a sending node passes on). */
    public RemoteNodeException refusal() {
        String why;
        if (keptOut) {
            why = " is kept out of the cluster until its links to the other nodes work again: not every node hears it (a link cut, or cut"
                    + " one way); its agents are being taken over by the others";
        } else if (rejoining || forfeited && quorate) {
            why = " is rejoining the cluster after it lost touch with it; its agents are being taken over by the other nodes";
        } else if (!quorate) {
            why = " is cut off from the majority of the cluster (it sees " + members + " of " + quorum() + "); its agents are being taken"
                    + " over by the nodes on the majority's side";
        } else {
            why = " has not heard from a majority of " + members + " for " + LEASE_MS + " ms (siebog.cluster.lease-ms): it admits"
                    + " nothing until it does, and if it does not, the others take its agents over";
        }
        return new RemoteNodeException("node " + self + why + ". Try again on another node");
    }

    /** Told by {@link LinkProbes} when this node is kept out of the cluster, and when no more: for the refusal's reason. */
    void keptOut(boolean out) {
        keptOut = out;
    }

    /**
     * Counts the times this node lost touch: what it asked for before (a save of an agent's state)
     * must not be done after, when the agent may live elsewhere.
     */
    public int epoch() {
        return epoch;
    }

    /** True when this node's view holds the quorum: while it does not, it admits nothing. */
    public boolean quorate() {
        return quorate;
    }

    /**
     * True when this node's view holds the quorum and a quorum of it has answered a heartbeat with that
     * same view: only then may it act for the cluster (take over departed nodes' agents, take them off
     * the node list), for only then can it tell a real majority from a view that counts a node on the
     * far side of a split.
     */
    public boolean settled() {
        return quorate && settled;
    }

    /** True from the moment this node may have had its agents taken over until it starts {@link #rejoining}: it takes nothing over meanwhile. */
    public boolean forfeited() {
        return forfeited;
    }

    /** True once this node, back in a settled view, must give up what it held before it lost touch ({@link #rejoining}). */
    public boolean mustRejoin() {
        return settled() && forfeited && !rejoining;
    }

    /** This node gives up its agents and leaves the node list: it holds nothing until {@link #rejoined}. */
    public void rejoining() {
        rejoining = true;
        forfeited = false;
        session = ThreadLocalRandom.current().nextLong(); // the member it comes back as
    }

    public boolean rejoiningNow() {
        return rejoining;
    }

    public void rejoined() {
        rejoining = false;
    }

    /**
     * The earliest moment ({@link System#nanoTime()}) at which {@code node}, gone from this node's
     * view, has surely stopped admitting and handling messages: its last lease ran out. Long.MAX_VALUE
     * while that cannot be known yet: the others install a view at slightly different times (seconds
     * apart on a starved machine), and until enough of them have shown, in their answers to this node's
     * heartbeats, a view without {@code node}, it may still be renewing its lease with their help.
     *
     * <p>{@code node} renews its lease when a quorum of the view it was in (itself included) says yes
     * at once; each other member N said yes for the last time at some moment s(N) (this node: its last
     * yes before its view left {@code node} out; a member still here: the last yes it reports in the
     * first answer whose view leaves {@code node} out; a member gone from here: when it went). A
     * paused or cut-off node stops asking, or its questions stop arriving, well before the view
     * changes, so its lease has usually ended by the time the view leaves it out. The last moment
     * {@code node} can have held a quorum of yeses is the s(N) at which, counting down from the
     * latest, the yeses first make a quorum; its lease ends
     * {@link #LEASE_MS} after that, and {@link #MARGIN_MS} covers the answers' way back and the clocks.
     */
    public long surelyExpiredAt(String node) {
        long now = clock.getAsLong();
        long margin = LEASE_NANOS + TimeUnit.MILLISECONDS.toNanos(MARGIN_MS);
        Quorum of = departedFrom.get(node);
        if (members.contains(node) || of == null) {
            // It left the node list but not the view (it stops, or rejoins, by itself and is answered no from
            // then on), or it left before this node was there to see it.
            return answered.getOrDefault(node, now) + margin;
        }
        List<String> yeses = new ArrayList<>(List.of(node));
        if (of.heldBy(yeses)) {
            return Long.MAX_VALUE; // it needs nobody's yes (the older of two): never taken over from here
        }
        Map<String, Long> lastYes = new HashMap<>();
        for (String other : of.reference()) {
            if (!other.equals(node)) {
                lastYes.put(other, stoppedRenewing(other, node, now));
            }
        }
        List<Map.Entry<String, Long>> latestFirst = lastYes.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).toList();
        for (Map.Entry<String, Long> other : latestFirst) {
            yeses.add(other.getKey());
            if (of.heldBy(yeses)) {
                return other.getValue() == Long.MAX_VALUE ? Long.MAX_VALUE : other.getValue() + margin;
            }
        }
        return now + margin;
    }

    /** When {@code member} said yes to {@code node}'s heartbeats for the last time, as far as this node can tell; Long.MAX_VALUE if it may yet. */
    private long stoppedRenewing(String member, String node, long now) {
        if (member.equals(self)) {
            return answered.getOrDefault(node, now); // its view has left node out: no more yeses from here
        }
        if (!members.contains(member)) {
            return leftAt.getOrDefault(member, now); // when it left this node's view
        }
        return leftOutBy.getOrDefault(member, Map.of()).getOrDefault(node, Long.MAX_VALUE);
    }

    /**
     * {@code node} took itself off the node list while still in the view: it is stopping (or rejoining
     * empty), and its agents are taken over like a departed node's. It no longer counts towards the
     * quorum, as Pekko leaves a member that left gracefully out of its split brain decisions: the last
     * two nodes of three that stop one after the other leave the third going on, not fenced. A node
     * that does not hold the quorum takes nobody off: it cannot tell a node that left from one that
     * a minority's node removed, and that would make a quorum of the minority.
     */
    synchronized void left(String node) {
        if (!quorate) {
            return;
        }
        if (members.contains(node)) {
            // It told the cluster it is going, so it is one this node can hear: it settles the view
            // it leaves behind, as it would have with its next answer (the last two of three that
            // stop one after the other).
            confirmed(node, members);
        }
        List<String> rest = quorum.reference().stream().filter(member -> !member.equals(node)).toList();
        if (!rest.isEmpty() && rest.size() < quorum.reference().size()) {
            quorum = new Quorum(rest);
            quorate = quorum.heldBy(members);
        }
    }

    /**
     * {@code node}, in the view all along, put itself back on the node list: it rejoined empty after
     * {@link #left}, and counts towards the quorum again, in its place in the view (oldest first). Left
     * out, it would shrink every later decision's reference: with it missing from [node1..node5], two
     * of the five killed left node4 measuring [node4, node5, node2] against four, and finding no quorum
     * where the others found one (perf/chaos). As {@link #left}, a node without the quorum changes nothing.
     */
    synchronized void rejoined(String node) {
        if (!quorate || !members.contains(node) || quorum.reference().contains(node)) {
            return;
        }
        List<String> counted = members.stream().filter(m -> m.equals(node) || quorum.reference().contains(m)).toList();
        quorum = new Quorum(counted);
        quorate = quorum.heldBy(members);
    }

    /** A new view, {@code key} naming it the same on every member: called on the thread that delivers views, before its listeners. */
    synchronized void viewChanged(String key, List<String> newMembers) {
        long now = clock.getAsLong();
        boolean outOfTouch = !alone && now - leaseUntil >= 0;
        boolean holdsQuorum = quorum.heldBy(newMembers);
        if (!holdsQuorum || outOfTouch) {
            // The others may have taken our agents over meanwhile (or will: we are the minority).
            forfeited = true;
            epoch++;
        }
        if (alone && newMembers.size() > 1) {
            leaseUntil = now + LEASE_NANOS; // nobody can have taken over from a node that was on its own
        }
        for (String member : newMembers) {
            answered.putIfAbsent(member, now); // a newcomer's lease counts from now: waiting longer is safe
            departedFrom.remove(member);
        }
        for (String departed : members) {
            if (!newMembers.contains(departed)) {
                leftAt.put(departed, now); // from now on this node says no to it
                departedFrom.put(departed, quorum);
                Long lastSession = sessions.remove(departed);
                if (lastSession != null) {
                    unsettledDepartures.put(departed, lastSession);
                }
            }
        }
        members = List.copyOf(newMembers);
        alone = newMembers.size() == 1;
        quorate = holdsQuorum;
        settled = false;
        confirmedBy = new HashSet<>(List.of(self));
        settleIfConfirmed();
        if (!holdsQuorum || outOfTouch) {
            LOG.warning(() -> self + (holdsQuorum ? " was out of touch with the cluster when view " + key + " " + newMembers + " came"
                    : " lost the quorum of " + quorum() + " with view " + key + " " + newMembers)
                    + ": it admits and handles nothing for its agents, and rejoins empty once it is back with a majority");
        }
    }

    /** {@code member} answered a heartbeat with {@code view}: when that is this node's view, it counts towards settling it. */
    private synchronized boolean confirmed(String member, List<String> view) {
        if (settled || !view.equals(members)) {
            return false;
        }
        confirmedBy.add(member);
        return settleIfConfirmed();
    }

    /**
     * Settles the current view once a quorum of the reference has answered with it: it becomes the
     * reference, and the nodes it lacks are ones this node has acted for the cluster without (their
     * agents taken over), to be told so if they come back in the same session ({@link #answer}).
     */
    private boolean settleIfConfirmed() {
        if (!quorate || !quorum.heldBy(confirmedBy)) {
            return false;
        }
        settled = true;
        confirmedBy = null;
        quorum = quorum.next(members);
        unsettledDepartures.forEach((node, session) -> {
            if (!members.contains(node)) {
                leftOutSessions.put(node, session);
            }
        });
        unsettledDepartures.clear();
        return true;
    }

    private synchronized Quorum reference() {
        return quorum;
    }

    private List<String> quorum() {
        return reference().reference();
    }

    /**
     * Answers {@code node}'s heartbeat: whether it is in this node's view as the member it has been
     * since its {@code session} began; if so, remembers when, for {@link #surelyExpiredAt}. Not
     * whether both are in the same view: the members of a cluster install a new view at slightly
     * different times (seconds apart on a starved machine), and what the asking node must know is
     * only that this one will not take over its agents, which it does only once its view has left the
     * asking node out. A node left out of this view and merged back in the same session is told so
     * ({@link NodeOp.Heartbeat.Verdict#LEFT_OUT}): its agents may have been taken over meanwhile, even
     * if its own view never changed (a one-way cut), and it must rejoin empty.
     */
    public NodeOp.Heartbeat.Verdict answer(String node, long session) {
        if (!members.contains(node)) {
            return NodeOp.Heartbeat.Verdict.NOT_IN_VIEW;
        }
        if (Long.valueOf(session).equals(leftOutSessions.get(node))) {
            return NodeOp.Heartbeat.Verdict.LEFT_OUT;
        }
        sessions.put(node, session);
        answered.put(node, clock.getAsLong());
        return NodeOp.Heartbeat.Verdict.IN_VIEW;
    }

    /** The member this node is since it last joined or rejoined: what its heartbeats and deliveries name. */
    long session() {
        return session;
    }

    /**
     * True when this node left {@code node} out of a settled view while it was in {@code session}:
     * what {@code node} sent in that session may have been sent before it knew, and may arrive only now
     * (a request retransmitted once a split heals). This node admits none of it: the sender's callers
     * were told it was not sent on, or heard nothing, and may have posted it again elsewhere.
     */
    public boolean leftOutIn(String node, long session) {
        return Long.valueOf(session).equals(leftOutSessions.get(node));
    }

    /**
     * The nodes this node has acted for the cluster without (left out of a settled view, their agents
     * taken over), each with the session it had then: {@link LinkProbes} names them in every probe, so
     * that a node on the far side of a split learns, before the sides merge, that this side went on
     * without it ({@link #wentOnWithout}).
     */
    Map<String, Long> leftOut() {
        return Map.copyOf(leftOutSessions);
    }

    /**
     * {@code node}'s probe named this node, in its current session, among the nodes {@code node} has
     * left out ({@code itsLeftOut}), and {@code node} is not in this node's view: the two are on the two
     * sides of a split, and {@code node}'s side held the quorum and took this node's agents over. True
     * when this node must therefore drop its copies of the cluster's caches before the sides merge
     * (agentmanager's rejoin takes them again, from that side): it does not hold its lease, and has
     * forfeited its agents, if it had not yet. A node that holds its lease ignores it (the quorum lets
     * only one side go on: that would be a stale probe).
     */
    boolean wentOnWithout(String node, Map<String, Long> itsLeftOut) {
        if (members.contains(node) || !Long.valueOf(session).equals(itsLeftOut.get(self))) {
            return false;
        }
        if (holds()) {
            LOG.warning(() -> self + " holds its lease, and yet " + node + ", outside its view, says it left " + self + " out: ignored");
            return false;
        }
        forfeit(node, ", on the other side of a split, that that side went on without it");
        return true;
    }

    /** This node's view, as its answers to heartbeats show it. */
    public List<String> members() {
        return members;
    }

    /** What to run when this node learns from an answer that it was left out ({@link #forfeit}), or that its view is settled. */
    void onVerdict(Runnable action) {
        this.onVerdict = action;
    }

    /**
     * An answer said this node was left out of the answering node's view since its session began:
     * the others may own its agents now. It admits and handles nothing from here on, drops the saves
     * it asked for, and rejoins empty.
     */
    private void forfeit(String by, String what) {
        synchronized (this) {
            if (forfeited || rejoining) {
                return;
            }
            forfeited = true;
            epoch++;
        }
        LOG.warning(() -> self + " learnt from " + by + what + ": it admits and handles nothing for its agents, and rejoins empty");
        onVerdict.run();
    }

    /**
     * One round of heartbeats to the other members that are {@code ready} (on the node list), each
     * asked with {@code ask} (node, request → its answer); renews the lease from the moment the round
     * was sent once a quorum (this node included) says it is in their views.
     */
    void beat(BiFunction<String, byte[], CompletableFuture<byte[]>> ask, Predicate<String> ready) {
        List<String> round = members;
        if (round.size() < 2) {
            return;
        }
        long sent = clock.getAsLong();
        byte[] request = new NodeOp.Heartbeat(self, session).toBytes();
        Quorum of = reference(); // the last settled view, less the nodes that left gracefully (when it lacks the quorum, no lease helps)
        List<String> inView = new CopyOnWriteArrayList<>(List.of(self));
        if (of.heldBy(inView)) {
            renew(sent); // the older of two: the other can never take over without it
        }
        AtomicInteger renewed = new AtomicInteger();
        for (String node : round) {
            if (node.equals(self) || !ready.test(node)) {
                continue; // a node whose Siebog has not started (or has left the node list) cannot answer
            }
            ask.apply(node, request).thenAccept(bytes -> NodeOp.Heartbeat.Answer.read(bytes).ifPresent(answer -> {
                sawView(node, answer);
                if (confirmed(node, answer.members())) {
                    LOG.info(() -> self + "'s view " + answer.members() + " is settled: a quorum of it answered with it");
                    onVerdict.run();
                }
                switch (answer.verdict()) {
                    case IN_VIEW -> {
                        inView.add(node);
                        if (of.heldBy(inView) && renewed.getAndIncrement() == 0) {
                            renew(sent);
                        }
                    }
                    case LEFT_OUT -> forfeit(node, " that it was left out of the view and merged back");
                    case NOT_IN_VIEW -> { }
                }
            }));
        }
    }

    /** {@code member}'s view as its answer just showed it: which nodes it no longer renews, and their last yes from it. */
    private void sawView(String member, NodeOp.Heartbeat.Answer answer) {
        long now = clock.getAsLong();
        Map<String, Long> leftOut = leftOutBy.computeIfAbsent(member, m -> new ConcurrentHashMap<>());
        leftOut.keySet().removeIf(answer.members()::contains);
        for (String node : departedFrom.keySet()) {
            if (!answer.members().contains(node)) {
                // Its last yes was at most that long before now (it answered before this node read the answer).
                Long ago = answer.lastYesAgo().get(node);
                leftOut.putIfAbsent(node, ago == null ? now : now - TimeUnit.MILLISECONDS.toNanos(Math.max(0, ago)));
            }
        }
    }

    /** For each node this node has said yes to, how long ago it last did (ms), for {@link NodeOp.Heartbeat.Answer}. */
    public Map<String, Long> lastYesAgo() {
        long now = clock.getAsLong();
        Map<String, Long> ago = new HashMap<>();
        answered.forEach((node, at) -> ago.put(node, TimeUnit.NANOSECONDS.toMillis(now - at)));
        return ago;
    }

    private synchronized void renew(long sent) {
        if (sent + LEASE_NANOS - leaseUntil > 0) {
            leaseUntil = sent + LEASE_NANOS;
        }
    }

    static long heartbeatMillis() {
        return HEARTBEAT_MS;
    }
}
