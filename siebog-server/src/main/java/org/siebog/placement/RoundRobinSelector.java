package org.siebog.placement;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Each node in turn: N new agents on N nodes land one per node. The default. */
final class RoundRobinSelector implements PlacementSelector {

    private final AtomicInteger next = new AtomicInteger();

    @Override
    public String select(List<String> nodes) {
        return nodes.get(Math.floorMod(next.getAndIncrement(), nodes.size()));
    }
}
