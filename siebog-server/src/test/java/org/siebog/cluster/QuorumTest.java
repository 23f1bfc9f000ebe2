package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class QuorumTest {

    private static final Quorum THREE = new Quorum(List.of("node1", "node2", "node3"));

    @Test
    void aMajorityGoesOnAndTheMinorityDoesNot() {
        assertTrue(THREE.heldBy(List.of("node1", "node3")));
        assertFalse(THREE.heldBy(List.of("node2")));
        Quorum five = new Quorum(List.of("a", "b", "c", "d", "e"));
        assertTrue(five.heldBy(List.of("c", "d", "e")), "3 of 5");
        assertFalse(five.heldBy(List.of("a", "b")), "2 of 5, the oldest among them");
    }

    @Test
    void anEvenSplitGoesOnOnlyOnTheHalfWithTheOldestMember() {
        Quorum four = new Quorum(List.of("a", "b", "c", "d"));
        assertTrue(four.heldBy(List.of("a", "d")));
        assertFalse(four.heldBy(List.of("b", "c")));
        Quorum two = new Quorum(List.of("older", "younger"));
        assertTrue(two.heldBy(List.of("older")));
        assertFalse(two.heldBy(List.of("younger")));
    }

    @Test
    void newcomersDoNotCountTowardsTheQuorumTheyJoin() {
        assertFalse(THREE.heldBy(List.of("node3", "node4", "node5", "node6")), "one of the three, with three strangers");
        assertTrue(THREE.heldBy(List.of("node1", "node2", "node3", "node4")));
    }

    @Test
    void theReferenceFollowsViewsThatHoldIt() {
        Quorum afterLoss = THREE.next(List.of("node1", "node2"));
        assertEquals(List.of("node1", "node2"), afterLoss.reference());
        assertTrue(afterLoss.heldBy(List.of("node1")), "then the older of the two alone");
        Quorum minority = THREE.next(List.of("node3"));
        assertEquals(THREE, minority, "a view without the quorum moves nothing");
        assertTrue(minority.heldBy(List.of("node1", "node2", "node3")), "merged back, the old reference is whole again");
    }
}
