package org.siebog.delivery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.SiebogException;
import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.NodeOp;
import org.siebog.cluster.RemoteNodes;
import org.siebog.message.SniffFilter;
import org.siebog.message.SniffedMessage;

/**
 * The cluster's sniffer (docs/admin.md, "Sniffer"): copies of the messages of chosen agents or
 * conversations, from every node, for whoever watches them (the console's Sniffer view, scripts).
 *
 * <p>Each node copies what it admits ({@link #admitted}: once per receiver, after de-duplication, so a
 * copy is a message that really reached a mailbox) to the taps that match it. A watch opened on one node
 * puts a tap on every node: its own, and one on each other node that sends its copies back
 * ({@link NodeOp.Watch}, {@link NodeOp.Sniffed}). Those remote taps hold a lease the watching node renews;
 * a watcher that died is forgotten when its lease runs out, and a node that joins later gets the tap at
 * the next renewal.
 *
 * <p>While nobody watches, a message costs one volatile read here, plus its place in the node's ring of
 * {@link #RECENT} recent admissions (a reference, or a shortened copy of a large message), which a new
 * watch starts with: an agent's recent messages. Bounds: {@link #MAX_TAPS} taps a node holds, and per tap
 * at most {@link #MAX_COPIES_PER_SECOND} copies a second from each node (the rest are counted, and the
 * next copy says how many were missed).
 */
@ApplicationScoped
public class Sniffer {

    private static final Logger LOG = Logger.getLogger(Sniffer.class.getName());
    static final int RECENT = 256;
    static final int MAX_TAPS = 256;
    static final int MAX_COPIES_PER_SECOND = 200;
    /** How long another node keeps a tap without hearing from its watcher; renewed every third of it. */
    static final long LEASE_MS = 30_000;
    private static final Tap[] NONE = {};

    @Inject
    ClusterNode cluster;

    @Inject
    RemoteNodes remote;

    @Inject
    AgentExecutor executor;

    /** The second a copy is counted in, against its tap's rate bound (tests set their own clock). */
    LongSupplier clockSeconds = () -> System.nanoTime() / 1_000_000_000L;
    private volatile Tap[] taps = NONE; // copy on write, under this
    /**
     * The last admissions, oldest overwritten first. Written without a lock: two lanes may race for a slot
     * and one copy is lost, which a diagnostic ring can afford.
     */
    private final SniffedMessage[] recent = new SniffedMessage[RECENT];
    int next; // counts admissions, wrapping past Integer.MAX_VALUE (a test starts it there)
    /** This node's name, read once: asking the cluster node's proxy at every admission was 0.6% of a loaded node's samples. */
    private volatile String nodeName;

    private String nodeName() {
        String name = nodeName;
        if (name == null) {
            nodeName = name = cluster.name();
        }
        return name;
    }

    /** A message admitted into the mailbox of {@code receiver} on this node. */
    void admitted(AID receiver, ACLMessage message) {
        SniffedMessage copy = new SniffedMessage(nodeName(), System.currentTimeMillis(), receiver, message, false, 0);
        recent[next++ & (RECENT - 1)] = copy;
        Tap[] watching = taps;
        if (watching.length == 0) {
            return;
        }
        long second = -1;
        for (Tap tap : watching) {
            if (tap.filter.matches(receiver, copy.message())) {
                tap.offer(copy, second < 0 ? second = clockSeconds.getAsLong() : second);
            }
        }
    }

    /**
     * Opens a watch on every node: {@code sink} gets the recent matching messages of this node and the
     * others first (marked recent), then each matching message as it is admitted, from any thread, until
     * {@link Watch#close()}. Duplicates are possible around the start (a message both recent and new).
     */
    public Watch watch(SniffFilter filter, Consumer<SniffedMessage> sink) {
        String id = cluster.name() + "/" + UUID.randomUUID();
        tap(id, filter, sink, Long.MAX_VALUE);
        Watch watch = new Watch(id, filter);
        watch.tellOthers(LEASE_MS);
        watch.renewal = executor.timer().scheduleWithFixedDelay(() -> watch.tellOthers(LEASE_MS), LEASE_MS / 3, LEASE_MS / 3,
                TimeUnit.MILLISECONDS);
        return watch;
    }

    /** A watch's handle: closing it removes its taps here and, by telling them, on the other nodes. */
    public final class Watch implements AutoCloseable {
        private final String id;
        private final SniffFilter filter;
        private volatile ScheduledFuture<?> renewal;

        private Watch(String id, SniffFilter filter) {
            this.id = id;
            this.filter = filter;
        }

        private void tellOthers(long leaseMillis) {
            remote.tellOthers(new NodeOp.Watch(id, cluster.name(), filter, leaseMillis));
        }

        @Override
        public void close() {
            ScheduledFuture<?> timer = renewal;
            if (timer != null) {
                timer.cancel(false);
            }
            untap(id);
            tellOthers(0);
        }
    }

    /**
     * Another node's watch ({@link NodeOp.Watch}): a tap here whose copies go back to {@code watcher},
     * its recent matches first; renewed when known; removed with a lease of 0.
     */
    public void watchedFrom(String watcher, String id, SniffFilter filter, long leaseMillis) {
        if (leaseMillis <= 0) {
            untap(id);
            return;
        }
        long lease = Math.min(leaseMillis, 3 * LEASE_MS);
        if (!renew(id, lease)) {
            tap(id, filter, copy -> remote.tell(watcher, new NodeOp.Sniffed(id, copy)), lease);
        }
    }

    /** A copy another node sent for a watch of this node ({@link NodeOp.Sniffed}); dropped when the watch has closed. */
    public void copyArrived(String id, SniffedMessage copy) {
        for (Tap tap : taps) {
            if (tap.id.equals(id)) {
                tap.sink.accept(copy);
                return;
            }
        }
    }

    /** The number of taps this node holds: its own watches and the other nodes'. */
    public int taps() {
        return taps.length;
    }

    private void tap(String id, SniffFilter filter, Consumer<SniffedMessage> sink, long leaseMillis) {
        Tap tap = new Tap(id, filter, sink, leaseMillis == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime()
                + TimeUnit.MILLISECONDS.toNanos(leaseMillis));
        synchronized (this) {
            dropExpired();
            if (taps.length >= MAX_TAPS) {
                throw new SniffersFullException();
            }
            Tap[] more = Arrays.copyOf(taps, taps.length + 1);
            more[taps.length] = tap;
            taps = more;
            if (taps.length == 1) {
                LOG.log(Level.FINE, "the sniffer watches this node's messages");
            }
        }
        for (SniffedMessage copy : recentMatching(filter)) {
            sink.accept(copy);
        }
    }

    private synchronized boolean renew(String id, long leaseMillis) {
        for (Tap tap : taps) {
            if (tap.id.equals(id)) {
                tap.expiresAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis);
                return true;
            }
        }
        return false;
    }

    private synchronized void untap(String id) {
        taps = Arrays.stream(taps).filter(t -> !t.id.equals(id)).toArray(Tap[]::new);
    }

    private void dropExpired() { // under this
        long now = System.nanoTime();
        if (Arrays.stream(taps).anyMatch(t -> t.expiresAt - now < 0)) {
            taps = Arrays.stream(taps).filter(t -> t.expiresAt - now >= 0).toArray(Tap[]::new);
        }
    }

    /** A watcher that died leaves no tap behind for long that costs every message a match. */
    @PostConstruct
    void sweepExpiredTaps() {
        executor.timer().scheduleWithFixedDelay(() -> {
            synchronized (this) {
                dropExpired();
            }
        }, LEASE_MS, LEASE_MS, TimeUnit.MILLISECONDS);
    }

    private List<SniffedMessage> recentMatching(SniffFilter filter) {
        List<SniffedMessage> matching = new ArrayList<>();
        int oldest = next; // the slot written next holds the oldest admission (the counter may wrap: only its low bits count)
        for (int k = 0; k < RECENT; k++) {
            SniffedMessage copy = recent[(oldest + k) & (RECENT - 1)];
            if (copy != null && filter.matches(copy.receiver(), copy.message())) {
                matching.add(copy.asRecent());
            }
        }
        matching.sort((a, b) -> Long.compare(a.at(), b.at())); // racing lanes may have written slots out of order
        return matching;
    }

    /** One watch's tap on this node. */
    private static final class Tap {
        final String id;
        final SniffFilter filter;
        final Consumer<SniffedMessage> sink;
        volatile long expiresAt; // System.nanoTime(); Long.MAX_VALUE for this node's own watches
        private long second = Long.MIN_VALUE; // guarded by this, like the two below
        private int sentThisSecond;
        private int missed;

        Tap(String id, SniffFilter filter, Consumer<SniffedMessage> sink, long expiresAt) {
            this.id = id;
            this.filter = filter;
            this.sink = sink;
            this.expiresAt = expiresAt;
        }

        void offer(SniffedMessage copy, long now) {
            SniffedMessage send;
            synchronized (this) {
                if (now != second) {
                    second = now;
                    sentThisSecond = 0;
                }
                if (++sentThisSecond > MAX_COPIES_PER_SECOND) {
                    missed++;
                    return;
                }
                send = copy.missing(missed);
                missed = 0;
            }
            try {
                sink.accept(send);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "a sniffer's copy was not taken", e);
            }
        }
    }

    /** 503: the node holds as many taps as it may. */
    static final class SniffersFullException extends SiebogException {

        SniffersFullException() {
            super("this node already serves " + MAX_TAPS + " sniffers' watches; try again later");
        }

        @Override
        public int status() {
            return 503;
        }
    }
}
