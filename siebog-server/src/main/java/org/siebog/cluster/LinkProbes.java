package org.siebog.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.protocols.TP;
import org.jgroups.protocols.TpHeader;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.jgroups.util.MessageBatch;
import org.jgroups.util.NameCache;

/**
 * Keeps nodes that not every node hears out of the cluster ({@link Reachability} says why and whom):
 * a JGroups protocol that Siebog puts right above the transport of WildFly's {@code ee} channel when
 * it joins, and takes out when it leaves.
 *
 * <p>Every second it sends each node it knows (every node of the views it has seen, the node list's
 * and those that left it alike) a probe naming the nodes it hears. Probes go straight to the
 * transport and are taken off before anything above sees them, whatever else is dropped: they are
 * how a node learns that a link works again. The transport's connections are the cluster's own (TLS
 * with the cluster's keys), so only a node of the cluster can send one.
 *
 * <p>Once {@link Reachability} keeps a node out, every other node drops what it sends and does not
 * send to it, and tells its failure detection that the node is gone (JGroups then checks and leaves
 * it out of its view); the node kept out drops what the others send and suspects them all. It sees
 * a view of its own alone, loses its lease, and stops ({@link NodeLease}); the others take its agents
 * over once their view has settled. When the link works again nobody is kept out, the views merge,
 * and the node is told it was left out and rejoins, as after any partition.
 *
 * <p>Until one end of a failing link is kept out, neither end's failure detection may leave the other
 * out of the view: whichever suspected first would win, not the rule above. So it puts a
 * {@link SuspicionGate} right below GMS, which holds such a suspicion back until then.
 *
 * <p>A probe also names the nodes its sender has left out of a settled view (and their sessions,
 * {@link NodeLease#leftOut}). A node that reads its own name there, from a node outside its view, is on
 * the far side of a split from a side that went on without it: before the two sides merge it must drop
 * its copies of the cluster's caches ({@link LocalCopies}), so this protocol holds the merge back
 * ({@link #holdBackMerge}) by dropping what nodes outside the view send, and what is sent to them,
 * until it has.
 */
final class LinkProbes extends Protocol {

    private static final Logger LOG = Logger.getLogger(LinkProbes.class.getName());
    /**
     * This protocol's id, for its probes' header: above JGroups' own ids and below those others use.
     * The header is the transport's own class: a class of Siebog's would have to be entered in
     * JGroups' table of header classes, which outlives a redeployment of the application.
     */
    static final short ID = 1729;
    private static final String MARK = "siebog-link-probe";
    private static final long PROBE_EVERY_MS = 1_000;

    private record Peer(Address address, long seen) {
    }

    private final String me;
    /** Told whether this node is kept out, for its refusals' reason; asked whom this side left out, and told whom the other side did. */
    private final NodeLease lease;
    /** Told the name of a node whose side went on without this one ({@link NodeLease#wentOnWithout}). */
    private final Consumer<String> leftBehindBy;
    private final Reachability reachability;
    private final Map<String, Peer> peers = new ConcurrentHashMap<>();
    private volatile View view;
    private volatile Set<String> keptOut = Set.of();
    private volatile boolean meKeptOut;
    /** While set, nothing goes to or comes from a node outside the view but probes: no merge can begin. */
    private volatile boolean mergeHeldBack;
    private volatile Future<?> probing;

    private LinkProbes(String me, NodeLease lease, Consumer<String> leftBehindBy) {
        this.me = me;
        this.lease = lease;
        this.leftBehindBy = leftBehindBy;
        this.reachability = new Reachability(me);
        setId(ID);
    }

    /** Puts the protocol in {@code channel}'s stack, right above its transport, and starts probing. */
    static LinkProbes install(JChannel channel, String me, NodeLease lease, Consumer<String> leftBehindBy) throws Exception {
        uninstall(channel);
        ProtocolStack stack = channel.getProtocolStack();
        for (Protocol protocol : stack.getProtocols()) {
            if (protocol.getId() == ID || protocol.getId() == SuspicionGate.ID) {
                throw new IllegalStateException("JGroups protocol id " + protocol.getId() + " is taken by " + protocol.getName());
            }
        }
        LinkProbes probes = new LinkProbes(me, lease, leftBehindBy);
        TP transport = stack.getTransport();
        stack.insertProtocol(probes, ProtocolStack.Position.ABOVE, transport.getClass());
        probes.addr(channel.getAddress());
        probes.seen(channel.getView());
        probes.init();
        probes.start();
        SuspicionGate gate = new SuspicionGate(probes::onlyALinkFails);
        stack.insertProtocol(gate, ProtocolStack.Position.BELOW, GMS.class);
        gate.addr(channel.getAddress());
        gate.init();
        gate.start();
        return probes;
    }

    /** Takes the protocol (and its {@link SuspicionGate}) out of {@code channel}'s stack (also those left by an earlier deployment). */
    static void uninstall(JChannel channel) {
        for (Protocol protocol : channel.getProtocolStack().getProtocols()) {
            String name = protocol.getClass().getName();
            if (name.equals(LinkProbes.class.getName()) || name.equals(SuspicionGate.class.getName())) {
                channel.getProtocolStack().removeProtocol(protocol);
                protocol.stop();
            }
        }
    }

    /**
     * True when this node's failure detection suspects {@code suspect}, a node that other nodes heard
     * after this one lost it ({@link Reachability#heardByOthersSinceLost}), and nobody is kept out over
     * it yet: the suspicion waits, and the failing link is settled by keeping one of its ends out.
     */
    private boolean onlyALinkFails(Address suspect) {
        if (meKeptOut) {
            return false;
        }
        String name = NameCache.get(suspect);
        return name != null && !keptOut.contains(name) && reachability.heardByOthersSinceLost(name, System.nanoTime());
    }

    /** The nodes kept out of the cluster now (this one among them when it is). */
    Set<String> keptOut() {
        return keptOut;
    }

    /**
     * Holds back (true) or lets happen (false) a merge with the nodes outside the view: while held
     * back, what they send is dropped (their probes aside), and nothing is sent to them.
     */
    void holdBackMerge(boolean held) {
        mergeHeldBack = held;
    }

    @Override
    public void start() throws Exception {
        super.start();
        probing = getTransport().getTimer().scheduleWithFixedDelay(this::round, 0, PROBE_EVERY_MS, TimeUnit.MILLISECONDS, false);
    }

    @Override
    public void stop() {
        Future<?> task = probing;
        if (task != null) {
            task.cancel(false);
        }
        super.stop();
    }

    @Override
    public Object down(Event event) {
        if (event.getType() == Event.VIEW_CHANGE) {
            seen(event.arg());
        }
        return down_prot.down(event);
    }

    @Override
    public Object down(Message message) {
        Address to = message.getDest();
        return to != null && (isKeptOut(to) || mergeHeldBack && !inView(to)) ? null : down_prot.down(message);
    }

    @Override
    public Object up(Message message) {
        if (message.getHeader(ID) != null) {
            probed(message);
            return null;
        }
        return dropsFrom(message.getSrc()) ? null : up_prot.up(message);
    }

    @Override
    public void up(MessageBatch batch) {
        batch.removeIf(message -> {
            if (message.getHeader(ID) == null) {
                return false;
            }
            probed(message);
            return true;
        }, true);
        if (!batch.isEmpty() && !dropsFrom(batch.sender())) {
            up_prot.up(batch);
        }
    }

    /** A node kept out drops everything the others send; the others drop what a node kept out sends. */
    private boolean dropsFrom(Address from) {
        if (from == null || from.equals(local_addr)) {
            return false;
        }
        return meKeptOut || isKeptOut(from) || mergeHeldBack && !inView(from);
    }

    private boolean inView(Address node) {
        View current = view;
        return current == null || current.containsMember(node);
    }

    private boolean isKeptOut(Address node) {
        if (keptOut.isEmpty() || meKeptOut) {
            return false;
        }
        String name = NameCache.get(node);
        return name != null && keptOut.contains(name);
    }

    private void seen(View newView) {
        if (newView == null) {
            return;
        }
        view = newView;
        long now = System.nanoTime();
        for (Address member : newView.getMembers()) {
            String name = NameCache.get(member);
            if (name != null && !name.equals(me)) {
                peers.put(name, new Peer(member, now));
            }
        }
    }

    private void probed(Message message) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(message.getArray(), message.getOffset(), message.getLength()))) {
            String from = in.readUTF();
            int count = in.readUnsignedShort();
            if (count > Reachability.MAX_NODES || (!peers.containsKey(from) && peers.size() >= Reachability.MAX_NODES)) {
                return;
            }
            Set<String> hears = new HashSet<>();
            for (int i = 0; i < count; i++) {
                hears.add(in.readUTF());
            }
            int leftOutCount = in.readUnsignedShort();
            if (leftOutCount > Reachability.MAX_NODES) {
                return;
            }
            Map<String, Long> leftOut = new HashMap<>();
            for (int i = 0; i < leftOutCount; i++) {
                leftOut.put(in.readUTF(), in.readLong());
            }
            long now = System.nanoTime();
            peers.put(from, new Peer(message.getSrc(), now));
            reachability.heard(from, hears, now);
            if (lease.wentOnWithout(from, leftOut)) {
                leftBehindBy.accept(from);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "a link probe that could not be read, from " + message.getSrc(), e);
        }
    }

    /** One round: probe every node known, then act on what the probes tell. */
    private void round() {
        try {
            long now = System.nanoTime();
            View current = view;
            Set<String> live = reachability.live(now);
            peers.entrySet().removeIf(peer -> now - peer.getValue().seen() > Reachability.FORGET_NANOS && !live.contains(peer.getKey())
                    && (current == null || !current.containsMember(peer.getValue().address())));
            byte[] probe = probe(reachability.hearing(now), lease.leftOut());
            for (Peer peer : peers.values()) {
                // Out of band, so that a receiver does not hold it behind the sender's other messages; through
                // the bundler, whose thread per destination (PausedPeers) waits on a cut or paused node alone.
                down_prot.down(new BytesMessage(peer.address(), probe).putHeader(ID, new TpHeader(MARK)).setFlag(Message.Flag.OOB));
            }
            Set<String> decided = reachability.decide(now);
            if (!decided.equals(keptOut)) {
                keptOut(decided, now);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a round of link probes failed", e);
        }
    }

    private byte[] probe(Set<String> hears, Map<String, Long> leftOut) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(me);
            out.writeShort(hears.size());
            for (String node : hears) {
                out.writeUTF(node);
            }
            List<Map.Entry<String, Long>> named = leftOut.entrySet().stream().limit(Reachability.MAX_NODES).toList();
            out.writeShort(named.size());
            for (Map.Entry<String, Long> node : named) {
                out.writeUTF(node.getKey());
                out.writeLong(node.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Acts on a new decision: drops what it must from now on, and has failure detection suspect whom it cut off. */
    private void keptOut(Set<String> decided, long now) {
        Set<String> before = keptOut;
        keptOut = Set.copyOf(decided);
        meKeptOut = decided.contains(me);
        lease.keptOut(meKeptOut);
        String links = reachability.describe(now);
        if (decided.isEmpty()) {
            LOG.info(() -> "every node hears every other again: nobody is kept out of the cluster (" + links + ")");
            return;
        }
        LOG.warning(() -> (meKeptOut ? me + " is kept out of the cluster" : "nodes " + decided + " are kept out of the cluster")
                + " until the links between the nodes work again: not every node hears every other (" + links + "); was " + before);
        View current = view;
        if (current == null) {
            return;
        }
        List<Address> suspects = new ArrayList<>();
        for (Address member : current.getMembers()) {
            String name = NameCache.get(member);
            if (name != null && !name.equals(me) && (meKeptOut || decided.contains(name))) {
                suspects.add(member);
            }
        }
        if (!suspects.isEmpty()) {
            up_prot.up(new Event(Event.SUSPECT, suspects));
        }
    }
}
