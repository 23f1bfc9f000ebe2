package org.siebog.placement;

import java.util.List;

/**
 * Chooses the node for a new agent, and the node for each message to a balanced stateless agent.
 * Pick one with {@code -Dsiebog.placement=round-robin|random|<class name>}; a class of your own
 * implements this interface and has a public no-argument constructor.
 */
public interface PlacementSelector {

    /**
     * @param nodes the live nodes, in the same order on every node (never empty)
     * @return one of {@code nodes}
     */
    String select(List<String> nodes);
}
