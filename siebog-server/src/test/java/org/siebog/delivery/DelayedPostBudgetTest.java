package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Performative;

class DelayedPostBudgetTest {

    @Test
    void takesUpToItsLimitRefusesBeyondWithoutTakingAndTakesAgainOnceGivenBack() {
        DelayedPostBudget budget = new DelayedPostBudget(1000);
        budget.take(600);
        budget.take(400);
        DelayedPostBudget.DelayedPostsFullException full = assertThrows(DelayedPostBudget.DelayedPostsFullException.class,
                () -> budget.take(1));
        assertEquals(503, full.status());
        assertTrue(full.getMessage().contains("1000"), full.getMessage());
        assertEquals(1000, budget.held(), "a refused post takes nothing");
        budget.giveBack(600);
        budget.take(500);
        assertEquals(900, budget.held());
    }

    @Test
    void aDepartedNodesPostsAreTakenOverPastTheLimit() {
        DelayedPostBudget budget = new DelayedPostBudget(1000);
        budget.take(900);
        budget.takeAnyway(500);
        assertEquals(1400, budget.held());
        assertThrows(DelayedPostBudget.DelayedPostsFullException.class, () -> budget.take(1), "new posts wait until it is under again");
    }

    @Test
    void aStoredDelayedPostReadsBackAsItWasWritten() {
        ACLMessage message = ACLMessage.builder(Performative.INFORM).receiver(AID.parse("counter@siebog")).conversationId("c")
                .content("1").build();
        DelayedPosts.Stored stored = new DelayedPosts.Stored("node2", 1_764_000_000_000L, 42, message);
        DelayedPosts.Stored read = DelayedPosts.Stored.decode(stored.encode());
        assertEquals("node2", read.holder());
        assertEquals(1_764_000_000_000L, read.dueAtMillis());
        assertEquals(42, read.turn());
        assertEquals(message.content(), read.message().content());
        assertEquals(message.receivers(), read.message().receivers());
        assertEquals("node3", read.heldBy("node3").holder());
    }
}
