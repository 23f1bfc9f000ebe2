package org.siebog.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGeneratorFactory;

import org.junit.jupiter.api.Test;

class PlacementSelectorsTest {

    private static final List<String> NODES = List.of("node1", "node2", "node3");

    @Test
    void roundRobinGivesEveryNodeItsTurn() {
        PlacementSelector selector = new RoundRobinSelector();
        assertEquals(List.of("node1", "node2", "node3", "node1", "node2", "node3"),
                java.util.stream.IntStream.range(0, 6).mapToObj(i -> selector.select(NODES)).toList());
    }

    @Test
    void roundRobinFollowsAShrinkingCluster() {
        PlacementSelector selector = new RoundRobinSelector();
        selector.select(NODES);
        for (int i = 0; i < 10; i++) {
            assertTrue(List.of("node1", "node3").contains(selector.select(List.of("node1", "node3"))));
        }
    }

    @Test
    void randomSpreadsEvenlyWithASeededGenerator() {
        // Seeded (RandomGenerator.of would seed it at random, and one run in a thousand would fail the 0.1% bound).
        PlacementSelector selector = new RandomSelector(RandomGeneratorFactory.of("L64X128MixRandom").create(42));
        Map<String, Integer> counts = new TreeMap<>();
        int draws = 30_000;
        for (int i = 0; i < draws; i++) {
            counts.merge(selector.select(NODES), 1, Integer::sum);
        }
        // Chi-square with 2 degrees of freedom; 13.8 is the 0.1% critical value.
        double expected = draws / 3.0;
        double chiSquare = counts.values().stream().mapToDouble(c -> (c - expected) * (c - expected) / expected).sum();
        assertEquals(NODES, List.copyOf(counts.keySet()));
        assertTrue(chiSquare < 13.8, () -> "uneven spread " + counts + ", chi-square " + chiSquare);
    }

    @Test
    void selectorsAreChosenByName() {
        ClassLoader loader = getClass().getClassLoader();
        assertInstanceOf(RoundRobinSelector.class, PlacementSelectors.named("round-robin", loader));
        assertInstanceOf(RandomSelector.class, PlacementSelectors.named("random", loader));
        assertInstanceOf(FirstNode.class, PlacementSelectors.named(FirstNode.class.getName(), loader));
    }

    @Test
    void anUnknownSelectorIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PlacementSelectors.named("round-robbin", getClass().getClassLoader()));
        assertTrue(e.getMessage().contains("siebog.placement=round-robbin"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PlacementSelectors.named(String.class.getName(), getClass().getClassLoader()));
    }

    /** A selector of one's own, as a user would plug in. */
    public static final class FirstNode implements PlacementSelector {
        @Override
        public String select(List<String> nodes) {
            return nodes.get(0);
        }
    }
}
