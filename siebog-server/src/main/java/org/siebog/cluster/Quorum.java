package org.siebog.cluster;

import java.util.Collection;
import java.util.List;

/**
 * Which side of a split cluster may go on: the side that still has a majority of the last view that
 * had one, or exactly half of it with that view's oldest member (its first: JGroups lists members
 * oldest first). At most one side of any split holds it, so at most one side takes over the other's
 * agents; a side that does not hold it stops and waits to be merged back. This is Pekko's
 * keep-majority: a 2|2 split of four nodes goes on on the half with the oldest node, and of a
 * two-node cluster whose nodes lose each other only the older one goes on (a crash and a cut
 * network look the same from the inside: run three nodes to survive the loss of any one).
 *
 * @param reference the members of the last view that held the quorum, oldest first
 */
record Quorum(List<String> reference) {

    Quorum {
        if (reference.isEmpty()) {
            throw new IllegalArgumentException("a quorum of no members");
        }
        reference = List.copyOf(reference);
    }

    /** True when {@code present} may act for the cluster. */
    boolean heldBy(Collection<String> present) {
        long kept = reference.stream().filter(present::contains).count();
        return 2 * kept > reference.size() || (2 * kept == reference.size() && present.contains(reference.get(0)));
    }

    /**
     * What to measure the next view against: {@code view} itself when it holds this quorum (nodes that
     * join or leave one at a time move the reference along), else this one still.
     */
    Quorum next(List<String> view) {
        return heldBy(view) ? new Quorum(view) : this;
    }
}
