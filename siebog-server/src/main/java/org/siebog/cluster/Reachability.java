package org.siebog.cluster;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Who hears whom, and which nodes to keep out so that the rest can all hear each other.
 *
 * <p>A failure detector answers "do I hear that node?", and a membership built on it assumes that the
 * answer is the same from every node. A network that drops one link, or one direction of it, breaks
 * that: node1 and node3 stop hearing each other while node2 hears both, node1 leaves node3 out of
 * its view, node3 leaves node1 out of its own, and node2 is merged into one view and then the other,
 * every few seconds, for as long as the link is down (JGroups has no rule for it; measured here, a
 * one-way cut flipped node2 between the two views every ~15 s). Pekko's split brain resolver calls
 * such nodes <em>indirectly connected</em> and downs them.
 *
 * <p>Siebog keeps them out instead, for as long as the link is down: every node tells every node it
 * knows, every second ({@link LinkProbes}), whom it hears. From its own hearing and the others'
 * reports each node works out the same links that fail (a pair of live nodes of which one does not
 * hear the other), and takes out, one at a time, the node with the most failing links (of equals,
 * the name that sorts last) until every pair left hears each other. The nodes kept out are cut off
 * from the others as cleanly as by a partition, and the quorum's rule ({@link NodeLease}) does the
 * rest. Once the links work again, nobody is kept out and they are merged back.
 *
 * <p>A decision is acted on once the same one has been worked out for {@link #STEADY_NANOS}: links
 * cut or mended one after the other (a partition as it forms or heals) pass through moments of a
 * partial partition that must not take anyone out.
 */
final class Reachability {

    /** A node is heard when a probe of its own came within this time (probes are a second apart). */
    static final long HEARD_NANOS = 3_000_000_000L;
    /** How long the same decision must hold before it is acted on. */
    static final long STEADY_NANOS = 3_000_000_000L;
    /** At most this many nodes are tracked: a cluster's nodes, well past any Siebog cluster's size. */
    static final int MAX_NODES = 256;
    /**
     * A node not heard from for this long is forgotten: {@link LinkProbes} probes it no more unless it is
     * in the view or another node hears it (its link to this one may work again).
     */
    static final long FORGET_NANOS = TimeUnit.MINUTES.toNanos(10);
    /** Room for a probe's way between two nodes, when telling which of two nodes heard a third last. */
    static final long IN_FLIGHT_NANOS = 500_000_000L;

    private record Report(Set<String> hears, long at) {
    }

    private final String me;
    private final Map<String, Report> reports = new ConcurrentHashMap<>();
    /** When this node last had a probe from each node, also one it no longer hears. */
    private final Map<String, Long> lastHeard = new ConcurrentHashMap<>();
    private Set<String> worked = Set.of();
    private long workedSince;
    private volatile Set<String> keptOut = Set.of();

    Reachability(String me) {
        this.me = me;
    }

    /** A probe came from {@code from}, which hears {@code hears} (itself not among them). */
    void heard(String from, Set<String> hears, long now) {
        if (from.equals(me) || (!lastHeard.containsKey(from) && lastHeard.size() >= MAX_NODES)) {
            return;
        }
        reports.put(from, new Report(Set.copyOf(hears), now));
        lastHeard.put(from, now);
    }

    /**
     * True when this node lost {@code node} (it heard it once and hears it no longer) while another node
     * still heard it afterwards: {@code node} is alive, only a link to it fails. A failure detector that
     * suspects it then must wait for {@link #decide} to say which end of the failing link to keep out:
     * left to the failure detectors, the end that suspects the other first would win, and the one that
     * loses may be the one that every other node hears (docs/cluster.md, "A link cut, or cut one way").
     *
     * <p>A node that died, was paused or was cut off from everyone is never such a node: the others
     * heard its last probes when this one did, and their reports say they hear it for at most
     * {@link #HEARD_NANOS} after that. A report counts as proof of a later hearing only once it came
     * that long (and {@link #IN_FLIGHT_NANOS} more) after this node's last one.
     */
    boolean heardByOthersSinceLost(String node, long now) {
        Long last = lastHeard.get(node);
        if (last == null || now - last < HEARD_NANOS) {
            return false;
        }
        return reports.entrySet().stream().anyMatch(other -> !other.getKey().equals(node)
                && now - other.getValue().at() < HEARD_NANOS
                && other.getValue().at() - HEARD_NANOS - IN_FLIGHT_NANOS > last
                && other.getValue().hears().contains(node));
    }

    /** The nodes this node hears now: what its probes tell the others. */
    Set<String> hearing(long now) {
        return new TreeSet<>(fresh(now).keySet());
    }

    /** What the nodes heard now say they hear. */
    private Map<String, Set<String>> fresh(long now) {
        Map<String, Set<String>> fresh = new HashMap<>();
        reports.forEach((node, report) -> {
            if (now - report.at() < HEARD_NANOS) {
                fresh.put(node, report.hears());
            }
        });
        return fresh;
    }

    /** The nodes kept out now, as last acted on: empty while every live node hears every other. */
    Set<String> keptOut() {
        return keptOut;
    }

    /**
     * Works out whom to keep out at {@code now} and acts on it (the result is what {@link #keptOut()}
     * says from then on) once the same answer has held for {@link #STEADY_NANOS}.
     */
    synchronized Set<String> decide(long now) {
        reports.values().removeIf(report -> now - report.at() >= HEARD_NANOS);
        lastHeard.values().removeIf(at -> now - at >= FORGET_NANOS);
        Set<String> answer = toKeepOut(now);
        if (!answer.equals(worked)) {
            worked = answer;
            workedSince = now;
        } else if (now - workedSince >= STEADY_NANOS && !answer.equals(keptOut)) {
            keptOut = answer;
        }
        return keptOut;
    }

    /** The nodes to keep out by what this node knows at {@code now}, not yet held steady. */
    Set<String> toKeepOut(long now) {
        Map<String, Set<String>> hears = hears(now);
        Set<String> live = live(hears);
        Map<String, Set<String>> failing = new HashMap<>();
        for (String a : live) {
            for (String b : live) {
                if (a.compareTo(b) < 0 && (doesNotHear(hears, a, b) || doesNotHear(hears, b, a))) {
                    failing.computeIfAbsent(a, x -> new HashSet<>()).add(b);
                    failing.computeIfAbsent(b, x -> new HashSet<>()).add(a);
                }
            }
        }
        Set<String> out = new TreeSet<>();
        while (!failing.isEmpty()) {
            String worst = failing.entrySet().stream()
                    .max(Comparator.<Map.Entry<String, Set<String>>>comparingInt(e -> e.getValue().size()).thenComparing(Map.Entry::getKey))
                    .orElseThrow().getKey();
            out.add(worst);
            for (String other : failing.remove(worst)) {
                Set<String> left = failing.get(other);
                left.remove(worst);
                if (left.isEmpty()) {
                    failing.remove(other);
                }
            }
        }
        return out;
    }

    /**
     * The live nodes at {@code now}: this one, those it hears and those they hear. A node that nobody
     * hears is gone (crashed, paused, or on the other side of a clean partition), not badly linked.
     */
    Set<String> live(long now) {
        return live(hears(now));
    }

    /** Whom each node heard now hears, this one included. */
    private Map<String, Set<String>> hears(long now) {
        Map<String, Set<String>> hears = fresh(now);
        hears.put(me, Set.copyOf(hears.keySet()));
        return hears;
    }

    private static Set<String> live(Map<String, Set<String>> hears) {
        Set<String> live = new HashSet<>();
        hears.forEach((node, heard) -> {
            live.add(node);
            live.addAll(heard);
        });
        return live;
    }

    /** True when {@code a}'s own report says it does not hear {@code b}; a report not at hand says nothing. */
    private static boolean doesNotHear(Map<String, Set<String>> hears, String a, String b) {
        Set<String> heardByA = hears.get(a);
        return heardByA != null && !heardByA.contains(b);
    }

    /** For the log: who hears whom, as this node knows it. */
    String describe(long now) {
        Map<String, Set<String>> fresh = fresh(now);
        StringBuilder out = new StringBuilder(me).append(" hears ").append(new TreeSet<>(fresh.keySet()));
        new TreeSet<>(fresh.keySet()).forEach(node -> out.append("; ").append(node).append(" hears ").append(new TreeSet<>(fresh.get(node))));
        return out.toString();
    }
}
