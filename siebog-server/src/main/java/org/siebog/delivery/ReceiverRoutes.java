package org.siebog.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.siebog.api.AID;
import org.siebog.api.RemoteNodeException;

/**
 * Keeps each sender's messages to one receiver in order when the receiver changes node (it moves,
 * or its node fails over): a receiver's messages leave this node for one node at a time. While
 * some sent to its old node are not yet admitted (on their way, or being handed on from there to
 * the new one), later ones wait here, in order, and go once the earlier ones are in.
 *
 * <p>Why here and not at the receiving end: one node's link to another is first in, first out, and
 * so is the node that forwards a moved agent's messages. Only a change of link can let a later
 * message overtake an earlier one, and only the sending node knows what it still has on the old
 * link. Counting per receiver is cheap (a map entry per receiver, kept while it is messaged); holding
 * happens only across a change of node.
 *
 * <p>A route stays in the map once its messages are settled, up to {@link #MAX_SETTLED_ROUTES} routes
 * (beyond, a route goes as it settles): a receiver messaged again and again, as most are, is then
 * one look-up a message, where adding its route for every message and removing it at every
 * acknowledgement cost a node a map insertion, a removal and a new route for each message it sent
 * to another node.
 *
 * <p>Whether a message goes now or waits is decided under its route's monitor. A message that goes
 * now is handed to its link after the monitor is released: the route counts it as unacknowledged,
 * so nothing waiting for that receiver can be released before it is settled, and a sender's next
 * message is decided only after this one is handed over. Released messages are handed over under
 * the monitor, so a message decided after a release comes behind what was released. What waits
 * counts against {@code maxHeldBytes}; beyond it a message is refused (503) and nothing is held.
 */
final class ReceiverRoutes {

    /** Sends one message to {@code node} (or admits it, when that is this node); completes with its admission. */
    interface Send extends Function<String, CompletableFuture<Void>> {
    }

    /** A message waiting for the earlier ones on another node's link. */
    private record Held(String node, Send send, CompletableFuture<Void> result, long bytes) {
    }

    /** A receiver's messages that this node has not seen settled, all sent to {@code node}, and those waiting (made when one waits). */
    private static final class Route {
        String node;
        /** Written under the route's monitor; read without it by {@link ReceiverRoutes#busy(AID)}. */
        volatile long unacked;
        ArrayDeque<Held> held;
        boolean removed;

        Route(String node) {
            this.node = node;
        }

        boolean waiting() {
            return held != null && !held.isEmpty();
        }

        int waitingCount() {
            return held == null ? 0 : held.size();
        }

        boolean takes(String to) {
            return !waiting() && (unacked == 0 || node.equals(to));
        }

        /** Counts a message going to {@code to} now. */
        void take(String to) {
            node = to;
            unacked++;
        }
    }

    /** Settled routes kept for the next message; beyond this many routes, a settled one is removed. */
    static final int MAX_SETTLED_ROUTES = 16_384;

    private final ConcurrentMap<AID, Route> routes = new ConcurrentHashMap<>();
    private final AtomicLong heldBytes = new AtomicLong();
    private final long maxHeldBytes;

    ReceiverRoutes(long maxHeldBytes) {
        this.maxHeldBytes = maxHeldBytes;
    }

    /** Whether any message to {@code receiver} is unacknowledged or waiting: an admission here must then queue behind it. */
    boolean busy(AID receiver) {
        if (routes.isEmpty()) {
            return false;
        }
        Route route = routes.get(receiver);
        return route != null && route.unacked > 0; // a waiting message counts as unacknowledged
    }

    /**
     * Sends a message to {@code receiver} on {@code node} now, or once the messages sent before it
     * to another node are admitted.
     *
     * @param bytes the message's estimated size, for the bound on what waits
     * @return the message's admission (a refusal when it could not even wait)
     */
    CompletableFuture<Void> send(AID receiver, String node, long bytes, Send send) {
        Decision decision = decide(receiver, node, bytes, send);
        CompletableFuture<Void> admitted = decision.waits() != null ? decision.waits() : sent(send, node);
        admitted.whenComplete((ok, failed) -> acknowledged(receiver, decision.route()));
        return admitted;
    }

    /**
     * One message to several receivers on one node: those with nothing waiting go together through
     * {@code together} (one request, the message written once), the others wait on their own. Each
     * route is decided under its own monitor in turn, never two at once.
     *
     * @param together sends the message to the receivers given, on {@code node}; one admission per receiver, in order
     * @param alone    sends it to one receiver, for one that waited
     * @return each receiver's admission
     */
    List<CompletableFuture<Void>> sendAll(List<AID> receivers, String node, long bytes,
            Function<List<AID>, List<CompletableFuture<Void>>> together, Function<AID, Send> alone) {
        int n = receivers.size();
        Decision[] decisions = new Decision[n];
        List<AID> now = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            AID receiver = receivers.get(i);
            decisions[i] = decide(receiver, node, bytes, alone.apply(receiver));
            if (decisions[i].waits() == null) {
                now.add(receiver);
            }
        }
        List<CompletableFuture<Void>> sentTogether = List.of();
        if (!now.isEmpty()) {
            try {
                sentTogether = together.apply(now);
            } catch (RuntimeException refused) {
                sentTogether = Collections.nCopies(now.size(), CompletableFuture.failedFuture(refused));
            }
        }
        List<CompletableFuture<Void>> results = new ArrayList<>(n);
        for (int i = 0, next = 0; i < n; i++) {
            AID receiver = receivers.get(i);
            Route route = decisions[i].route();
            CompletableFuture<Void> admitted = decisions[i].waits() != null ? decisions[i].waits() : sentTogether.get(next++);
            admitted.whenComplete((ok, failed) -> acknowledged(receiver, route));
            results.add(admitted);
        }
        return results;
    }

    /** A message's route, and what it waits on: null when it goes now (counted as unacknowledged), else its wait or refusal. */
    private record Decision(Route route, CompletableFuture<Void> waits) {
    }

    /** Under the route's monitor: whether a message to {@code receiver} on {@code node} goes now or waits. */
    private Decision decide(AID receiver, String node, long bytes, Send send) {
        for (;;) {
            Route route = routes.computeIfAbsent(receiver, r -> new Route(node));
            synchronized (route) {
                if (route.removed) {
                    continue; // emptied and dropped meanwhile: take the fresh one
                }
                if (route.takes(node)) {
                    route.take(node);
                    return new Decision(route, null);
                }
                return new Decision(route, hold(route, node, bytes, send));
            }
        }
    }

    /** Hands a message to its link; a refusal thrown here is its result. */
    private static CompletableFuture<Void> sent(Send send, String node) {
        try {
            return send.apply(node);
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
    }

    /** With the route's monitor held: queues a message behind the earlier ones, or refuses it at the bound. */
    private CompletableFuture<Void> hold(Route route, String node, long bytes, Send send) {
        route.unacked++; // settled by its result, as every message is; the route stays while it waits
        if (heldBytes.addAndGet(bytes) > maxHeldBytes) {
            heldBytes.addAndGet(-bytes);
            return CompletableFuture.failedFuture(new RemoteNodeException("the messages waiting for earlier ones to reach their"
                    + " receiver's new node are at their limit (" + maxHeldBytes + " bytes, siebog.cluster.max-link-bytes);"
                    + " nothing was sent, try again shortly"));
        }
        if (route.held == null) {
            route.held = new ArrayDeque<>();
        }
        Held held = new Held(node, send, new CompletableFuture<>(), bytes);
        route.held.add(held);
        return held.result();
    }

    /**
     * A message's admission is settled (either way). When nothing sent is left unsettled, what
     * waited goes: every waiting message for the next node, in order, up to one for another node.
     */
    private void acknowledged(AID receiver, Route route) {
        List<Runnable> afterUnlock = null;
        synchronized (route) {
            route.unacked--;
            if (route.unacked - route.waitingCount() == 0 && route.waiting()) {
                afterUnlock = new ArrayList<>();
                String next = route.held.peek().node();
                while (route.waiting() && route.held.peek().node().equals(next)) {
                    Held held = route.held.poll();
                    heldBytes.addAndGet(-held.bytes());
                    route.node = next;
                    CompletableFuture<Void> admitted = sent(held.send(), next); // under the monitor: ahead of anything decided later
                    // Still counted in unacked (as held): settled when this admission is.
                    afterUnlock.add(() -> admitted.whenComplete((ok, failed) -> {
                        if (failed != null) {
                            held.result().completeExceptionally(failed);
                        } else {
                            held.result().complete(null);
                        }
                    }));
                }
            } else if (route.unacked == 0 && routes.size() > MAX_SETTLED_ROUTES) {
                route.removed = true;
                routes.remove(receiver, route);
            }
        }
        if (afterUnlock != null) {
            afterUnlock.forEach(Runnable::run);
        }
    }

    /** Receivers with messages unacknowledged or waiting (for tests, and anyone looking into a node). */
    int size() {
        return (int) routes.values().stream().filter(route -> route.unacked > 0).count();
    }

    /** Routes kept, settled or not: at most {@link #MAX_SETTLED_ROUTES} plus those with messages unsettled. */
    int kept() {
        return routes.size();
    }
}
