package org.siebog.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
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
 * link. Counting per receiver is cheap (a map entry while messages are unacknowledged); holding
 * happens only across a change of node.
 *
 * <p>Every send to a receiver that this node tracks goes through its route's lock, and so does the
 * release of what waited, so the order messages are handed to their links is the order decided here.
 * What waits counts against {@code maxHeldBytes}; beyond it a message is refused (503) and nothing
 * is held.
 */
final class ReceiverRoutes {

    /** Sends one message to {@code node} (or admits it, when that is this node); completes with its admission. */
    interface Send extends Function<String, CompletableFuture<Void>> {
    }

    /** A message waiting for the earlier ones on another node's link. */
    private record Held(String node, Send send, CompletableFuture<Void> result, long bytes) {
    }

    /** A receiver's messages that this node has not seen admitted, all sent to {@code node}, and those waiting. */
    private static final class Route {
        final ReentrantLock lock = new ReentrantLock();
        String node;
        long unacked;
        final ArrayDeque<Held> held = new ArrayDeque<>();
        boolean removed;

        Route(String node) {
            this.node = node;
        }

        boolean takes(String to) {
            return held.isEmpty() && (unacked == 0 || node.equals(to));
        }
    }

    private final ConcurrentMap<AID, Route> routes = new ConcurrentHashMap<>();
    private final AtomicLong heldBytes = new AtomicLong();
    private final long maxHeldBytes;

    ReceiverRoutes(long maxHeldBytes) {
        this.maxHeldBytes = maxHeldBytes;
    }

    /** Whether any message to {@code receiver} is unacknowledged or waiting: an admission here must then queue behind it. */
    boolean busy(AID receiver) {
        return !routes.isEmpty() && routes.containsKey(receiver);
    }

    /**
     * Sends a message to {@code receiver} on {@code node} now, or once the messages sent before it
     * to another node are admitted.
     *
     * @param bytes the message's estimated size, for the bound on what waits
     * @return the message's admission (a refusal when it could not even wait)
     */
    CompletableFuture<Void> send(AID receiver, String node, long bytes, Send send) {
        for (;;) {
            Route route = routes.computeIfAbsent(receiver, r -> new Route(node));
            CompletableFuture<Void> admitted;
            route.lock.lock();
            try {
                if (route.removed) {
                    continue; // emptied and dropped meanwhile: take the fresh one
                }
                admitted = sendOrHold(route, node, bytes, send);
            } finally {
                route.lock.unlock();
            }
            admitted.whenComplete((ok, failed) -> acknowledged(receiver, route));
            return admitted;
        }
    }

    /**
     * One message to several receivers on one node: those with nothing waiting go together through
     * {@code together} (one request, the message written once), the others wait on their own.
     * The routes are locked in one order, so two such sends never wait for each other's locks.
     *
     * @param together sends the message to the receivers given, on {@code node}; one admission per receiver, in order
     * @param alone    sends it to one receiver, for one that waited
     * @return each receiver's admission
     */
    List<CompletableFuture<Void>> sendAll(List<AID> receivers, String node, long bytes,
            Function<List<AID>, List<CompletableFuture<Void>>> together, Function<AID, Send> alone) {
        int n = receivers.size();
        Integer[] lockOrder = new Integer[n];
        for (int i = 0; i < n; i++) {
            lockOrder[i] = i;
        }
        Arrays.sort(lockOrder, Comparator.comparing(i -> receivers.get(i).toString()));
        Route[] route = new Route[n];
        List<CompletableFuture<Void>> results = new ArrayList<>(n);
        int locked = 0;
        try {
            for (; locked < n; locked++) {
                int i = lockOrder[locked];
                route[i] = lockedRoute(receivers.get(i), node);
            }
            List<AID> now = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (route[i].takes(node)) {
                    now.add(receivers.get(i));
                }
            }
            List<CompletableFuture<Void>> sentTogether = now.isEmpty() ? List.of() : together.apply(now);
            for (int i = 0, next = 0; i < n; i++) {
                if (next < now.size() && now.get(next) == receivers.get(i)) {
                    route[i].node = node;
                    route[i].unacked++;
                    results.add(sentTogether.get(next++));
                } else {
                    results.add(sendOrHold(route[i], node, bytes, alone.apply(receivers.get(i))));
                }
            }
        } finally {
            for (int k = 0; k < locked; k++) {
                route[lockOrder[k]].lock.unlock();
            }
        }
        for (int i = 0; i < n; i++) {
            AID receiver = receivers.get(i);
            Route r = route[i];
            results.get(i).whenComplete((ok, failed) -> acknowledged(receiver, r));
        }
        return results;
    }

    /** {@code receiver}'s route, locked, made if there is none. */
    private Route lockedRoute(AID receiver, String node) {
        for (;;) {
            Route route = routes.computeIfAbsent(receiver, r -> new Route(node));
            route.lock.lock();
            if (!route.removed) {
                return route;
            }
            route.lock.unlock();
        }
    }

    /** With the route locked: sends now if nothing is on another node's way or waiting, else queues behind. */
    private CompletableFuture<Void> sendOrHold(Route route, String node, long bytes, Send send) {
        if (route.takes(node)) {
            route.node = node;
            route.unacked++;
            return send.apply(node);
        }
        if (heldBytes.addAndGet(bytes) > maxHeldBytes) {
            heldBytes.addAndGet(-bytes);
            route.unacked++; // acknowledged by the refusal below, as every result is
            return CompletableFuture.failedFuture(new RemoteNodeException("the messages waiting for earlier ones to reach their"
                    + " receiver's new node are at their limit (" + maxHeldBytes + " bytes, siebog.cluster.max-link-bytes);"
                    + " nothing was sent, try again shortly"));
        }
        Held held = new Held(node, send, new CompletableFuture<>(), bytes);
        route.held.add(held);
        route.unacked++; // counted from now: the route stays while it waits
        return held.result();
    }

    /**
     * A message's admission is settled (either way). When nothing sent is left unsettled, what
     * waited goes: every waiting message for the next node, in order, up to one for another node.
     */
    private void acknowledged(AID receiver, Route route) {
        List<Runnable> afterUnlock = new ArrayList<>();
        route.lock.lock();
        try {
            route.unacked--;
            long sent = route.unacked - route.held.size();
            if (sent == 0 && !route.held.isEmpty()) {
                String next = route.held.peek().node();
                while (!route.held.isEmpty() && route.held.peek().node().equals(next)) {
                    Held held = route.held.poll();
                    heldBytes.addAndGet(-held.bytes());
                    route.node = next;
                    CompletableFuture<Void> admitted = held.send().apply(next);
                    // Still counted in unacked (as held): settled when this admission is.
                    afterUnlock.add(() -> admitted.whenComplete((ok, failed) -> {
                        if (failed != null) {
                            held.result().completeExceptionally(failed);
                        } else {
                            held.result().complete(null);
                        }
                    }));
                }
            } else if (route.unacked == 0) {
                route.removed = true;
                routes.remove(receiver, route);
            }
        } finally {
            route.lock.unlock();
        }
        afterUnlock.forEach(Runnable::run);
    }

    /** Receivers with messages unacknowledged or waiting (for tests, and anyone looking into a node). */
    int size() {
        return routes.size();
    }
}
