package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;
import org.siebog.api.RemoteNodeException;

/** A receiver's messages leave for one node at a time: those after a change of node wait for the earlier ones' admissions. */
class ReceiverRoutesTest {

    private static final AID A = AID.parse("a@siebog");
    private static final AID B = AID.parse("b@siebog");

    /** What the links were handed, in order: "node:label", with each admission to complete by hand. */
    private final List<String> handed = new ArrayList<>();
    private final List<CompletableFuture<Void>> admissions = new ArrayList<>();
    private final ReceiverRoutes routes = new ReceiverRoutes(1_000);

    private ReceiverRoutes.Send link(String label) {
        return node -> {
            handed.add(node + ":" + label);
            CompletableFuture<Void> admitted = new CompletableFuture<>();
            admissions.add(admitted);
            return admitted;
        };
    }

    @Test
    void settledRoutesAreKeptForTheNextMessageUpToTheirBound() {
        int receivers = ReceiverRoutes.MAX_SETTLED_ROUTES + 100;
        for (int i = 0; i < receivers; i++) {
            routes.send(AID.parse("r" + i + "@siebog"), "node2", 10, link("m" + i));
        }
        assertEquals(receivers, routes.kept(), "each unacknowledged message's route is kept");
        admissions.forEach(a -> a.complete(null));
        assertEquals(0, routes.size(), "nothing unacknowledged");
        assertEquals(ReceiverRoutes.MAX_SETTLED_ROUTES, routes.kept(), "settled routes beyond the bound went as they settled");

        routes.send(AID.parse("r0@siebog"), "node1", 10, link("again")); // a kept route takes a message to any node
        assertEquals("node1:again", handed.get(handed.size() - 1));
        assertTrue(routes.busy(AID.parse("r0@siebog")));
    }

    @Test
    void messagesToOneNodeGoAtOnceAndTheRouteGoesWithTheirAdmissions() {
        routes.send(A, "node2", 10, link("1"));
        routes.send(A, "node2", 10, link("2"));
        assertEquals(List.of("node2:1", "node2:2"), handed);
        assertTrue(routes.busy(A));
        admissions.forEach(a -> a.complete(null));
        assertFalse(routes.busy(A), "nothing unacknowledged: nothing kept");
        assertEquals(0, routes.size());
    }

    @Test
    void afterAChangeOfNodeLaterMessagesWaitForTheEarlierOnesInOrder() {
        CompletableFuture<Void> first = routes.send(A, "node1", 10, link("1"));
        CompletableFuture<Void> second = routes.send(A, "node2", 10, link("2")); // the agent moved to node2
        CompletableFuture<Void> third = routes.send(A, "node2", 10, link("3"));
        CompletableFuture<Void> back = routes.send(A, "node1", 10, link("4")); // and back
        assertEquals(List.of("node1:1"), handed, "the rest wait while message 1 is on node1's way");
        assertFalse(second.isDone());

        admissions.get(0).complete(null);
        assertTrue(first.isDone());
        assertEquals(List.of("node1:1", "node2:2", "node2:3"), handed, "released in order, for one node at a time");

        admissions.get(1).complete(null);
        assertEquals(3, handed.size(), "message 4 goes to node1 only once both on node2's way are in");
        admissions.get(2).complete(null);
        assertTrue(second.isDone() && third.isDone());
        assertEquals(List.of("node1:1", "node2:2", "node2:3", "node1:4"), handed);
        admissions.get(3).complete(null);
        assertTrue(back.isDone());
        assertEquals(0, routes.size());
    }

    @Test
    void aRefusalSettlesAMessageAsAnAdmissionDoesAndIsPassedOn() {
        routes.send(A, "node1", 10, link("1"));
        CompletableFuture<Void> waiting = routes.send(A, "node2", 10, link("2"));
        admissions.get(0).completeExceptionally(new RemoteNodeException("node1 left"));
        assertEquals(List.of("node1:1", "node2:2"), handed);
        admissions.get(1).completeExceptionally(new RemoteNodeException("full"));
        CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, waiting::join);
        assertEquals("full", e.getCause().getMessage());
        assertEquals(0, routes.size());
    }

    @Test
    void whatWaitsIsBoundedAndABoundedOutMessageIsRefusedWithoutBeingHeld() {
        routes.send(A, "node1", 10, link("1"));
        routes.send(A, "node2", 600, link("2"));
        CompletableFuture<Void> over = routes.send(A, "node2", 600, link("3"));
        assertTrue(over.isCompletedExceptionally());
        CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, over::join);
        assertTrue(e.getCause().getMessage().contains("siebog.cluster.max-link-bytes"), e.getCause().getMessage());
        admissions.get(0).complete(null);
        assertEquals(List.of("node1:1", "node2:2"), handed, "the refused message was never sent");
    }

    @Test
    void oneMessageToSeveralGoesTogetherButAReceiverWithEarlierMessagesElsewhereWaitsAlone() {
        routes.send(B, "node1", 10, link("b-earlier"));
        List<List<AID>> together = new ArrayList<>();
        List<CompletableFuture<Void>> results = routes.sendAll(List.of(A, B), "node2", 10, receivers -> {
            together.add(receivers);
            List<CompletableFuture<Void>> each = new ArrayList<>();
            receivers.forEach(r -> each.add(CompletableFuture.completedFuture(null)));
            return each;
        }, receiver -> link("alone-" + receiver.name()));
        assertEquals(List.of(List.of(A)), together);
        assertTrue(results.get(0).isDone());
        assertFalse(results.get(1).isDone(), "b waits for its message on node1's way");
        admissions.get(0).complete(null);
        assertEquals(List.of("node1:b-earlier", "node2:alone-b"), handed);
        admissions.get(1).complete(null);
        assertTrue(results.get(1).isDone());
        assertEquals(0, routes.size());
    }
}
