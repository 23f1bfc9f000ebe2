package org.siebog.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.logging.Logger;

import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.View;
import org.jgroups.stack.Protocol;
import org.jgroups.util.NameCache;

/**
 * Holds back the failure detectors' suspicion of a node that only this node lost: a JGroups protocol
 * right below GMS, which {@link LinkProbes} puts in place with itself.
 *
 * <p>JGroups acts on a suspicion at once: a coordinator leaves the suspect out of its next view, and the
 * member next in line that suspects the coordinator takes its place and leaves the coordinator out. When
 * only the link between two nodes fails, both ends suspect each other within a second of each other, and
 * the one that suspects first wins: if that is the member next in line, the coordinator is left out, while
 * {@link Reachability} keeps the other end out, and every node ends up alone until the link works again
 * (seen in two of six runs of PartitionIT's one-way cut). So a suspicion of a node that other nodes heard
 * after this one lost it waits here, and is sent on (to GMS, again by the failure detector each second, or
 * by {@link LinkProbes} itself) once one end of the link is kept out. A node that died, was paused or was
 * cut off from everyone is suspected as before.
 */
final class SuspicionGate extends Protocol {

    private static final Logger LOG = Logger.getLogger(SuspicionGate.class.getName());
    /** This protocol's id: it has no header, but a stack's protocols need ids of their own. */
    static final short ID = 1730;

    private final Predicate<Address> onlyALinkFails;
    /** The suspects held back now, so that each is logged once; members of the view only. */
    private final Set<Address> holding = ConcurrentHashMap.newKeySet();

    SuspicionGate(Predicate<Address> onlyALinkFails) {
        this.onlyALinkFails = onlyALinkFails;
        setId(ID);
    }

    @Override
    public Object up(Event event) {
        if (event.getType() != Event.SUSPECT) {
            return up_prot.up(event);
        }
        Collection<Address> suspects = event.arg() instanceof Address one ? List.of(one) : event.arg();
        List<Address> passed = new ArrayList<>(suspects.size());
        for (Address suspect : suspects) {
            if (!onlyALinkFails.test(suspect)) {
                holding.remove(suspect);
                passed.add(suspect);
            } else if (holding.add(suspect)) {
                LOG.info(() -> "holding back the suspicion of " + Objects.requireNonNullElse(NameCache.get(suspect), suspect) + ": other nodes still hear it, only its link"
                        + " to this node fails, and one end of that link will be kept out of the cluster");
            }
        }
        return passed.isEmpty() ? null : up_prot.up(new Event(Event.SUSPECT, passed));
    }

    @Override
    public Object down(Event event) {
        if (event.getType() == Event.VIEW_CHANGE) {
            View view = event.arg();
            holding.retainAll(view.getMembers());
        }
        return down_prot.down(event);
    }
}
