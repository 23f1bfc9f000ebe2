package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

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
}
