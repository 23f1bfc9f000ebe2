package org.siebog.placement;

import java.util.List;
import java.util.random.RandomGenerator;

/** A node chosen uniformly at random; seedable, so tests can check the spread. */
final class RandomSelector implements PlacementSelector {

    private final RandomGenerator random;

    public RandomSelector() {
        this(RandomGenerator.of("L64X128MixRandom"));
    }

    public RandomSelector(RandomGenerator random) {
        this.random = random;
    }

    @Override
    public synchronized String select(List<String> nodes) {
        return nodes.get(random.nextInt(nodes.size()));
    }
}
