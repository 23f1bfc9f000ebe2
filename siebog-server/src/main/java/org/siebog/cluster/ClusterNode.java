package org.siebog.cluster;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.HashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.net.ssl.SSLSocket;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.siebog.directory.StringCaches;
import org.infinispan.context.Flag;
import org.infinispan.manager.EmbeddedCacheManager;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryCreated;
import org.infinispan.notifications.cachelistener.annotation.CacheEntryRemoved;
import org.infinispan.notifications.cachelistener.event.CacheEntryEvent;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.fork.ForkChannel;
import org.jgroups.protocols.TP;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.NameCache;
import org.siebog.api.RemoteNodeException;
import org.siebog.platform.CopiesRetaken;

/**
 * This node's membership of the cluster and its line to the other nodes.
 *
 * <p>Siebog talks on a fork ({@code siebog-messaging}) of WildFly's {@code ee} JGroups channel, the
 * channel Infinispan replicates the directory over: one membership view for both, and no second set
 * of ports or discovery settings. A node counts as a Siebog member when it is in the view and has
 * registered itself in the replicated {@code nodes} cache (a WildFly node without the EAR is in the
 * view but cannot take agents).
 */
@ApplicationScoped
public class ClusterNode {

    private static final Logger LOG = Logger.getLogger(ClusterNode.class.getName());
    private static final String FORK_STACK = "siebog-messaging";
    private static final long REQUEST_TIMEOUT_MS = 30_000;

    @Resource(lookup = "java:jboss/jgroups/channel/ee")
    JChannel mainChannel;

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/nodes")
    void setNodes(Cache<String, String> injected) {
        nodes = StringCaches.raw(injected);
    }

    private AdvancedCache<String, String> nodes;
    private final Departures departures = new Departures();

    /** The cache container of all Siebog's caches: this node drops its copies when it must (see LocalCopies). */
    @Resource(lookup = "java:jboss/infinispan/container/siebog")
    EmbeddedCacheManager caches;

    @Inject
    Event<CopiesRetaken> copiesRetaken;

    private LocalCopies copies;
    /** Set from the moment this node decides to drop its copies of the caches until it has taken them again. */
    private final AtomicBoolean copiesDropped = new AtomicBoolean();

    @Resource
    ManagedExecutorService events;

    @Resource
    ManagedThreadFactory threads;

    private ForkChannel channel;
    private MessageDispatcher dispatcher;
    private volatile View view;
    private volatile Map<String, Address> addresses = Map.of();
    private final List<Consumer<List<String>>> viewListeners = new CopyOnWriteArrayList<>();
    private String name;
    private String httpAddress;
    /** Made with the bean, before the node joins: the agents' lanes ask it from their start. */
    private final NodeLease lease = new NodeLease(System.getProperty("jboss.node.name", "node1"));
    private Thread heartbeats;
    /** Keeps nodes that not every node hears out of the view (a link cut, or cut one way). */
    private volatile LinkProbes links;
    /** Set when the node stops: from then on it never puts itself back on the node list. */
    private volatile boolean leaving;
    /** A registration by {@link #stayRegistered} under way. */
    private final AtomicBoolean registering = new AtomicBoolean();

    /** Where the other nodes' links connect to deliver messages here. */
    private volatile LinkServer linkServer;

    /**
     * Joins the cluster; {@code requests} serves what other nodes ask of this one, {@code deliveries}
     * the messages they send over their links ({@link LinkServer}).
     */
    public synchronized void start(String nodeName, String httpAddress, RequestHandler requests, LinkDeliveries deliveries) {
        if (channel != null) {
            return;
        }
        name = nodeName;
        this.httpAddress = httpAddress;
        TP transport = mainChannel.getProtocolStack().getTransport();
        PausedPeers.guard(transport);
        try {
            // Before this node joins: a node that sees it in the view may ask for its link's port at once.
            linkServer = LinkServer.start(transport.getSocketFactory(), transport.getBindAddress(), this::inView, deliveries, threads);
        } catch (IOException e) {
            throw new IllegalStateException("could not listen for the other nodes' links on " + transport.getBindAddress() + ": " + e, e);
        }
        try {
            copies = new LocalCopies(caches, this::copiesRetaken);
            links = LinkProbes.install(mainChannel, nodeName, lease, this::leftBehindBy);
            channel = new ForkChannel(mainChannel, FORK_STACK, "siebog");
            dispatcher = new MessageDispatcher(channel, requests).asyncDispatching(true);
            // Answers are read as bytes only, never Java-deserialised (see BytesOnlyCorrelator).
            BytesOnlyCorrelator.install(dispatcher, channel.getAddress());
            dispatcher.setReceiver(new Receiver() {
                @Override
                public void viewAccepted(View newView) {
                    onView(newView);
                }
            });
            channel.connect("siebog");
        } catch (Exception e) {
            throw new IllegalStateException("could not join the cluster on JGroups channel 'ee' (fork " + FORK_STACK + "): " + e, e);
        }
        nodes.put(name, httpAddress);
        nodes.addListener(departures);
        // Left out and merged back without noticing (a one-way cut), or a view settled by the others'
        // answers: the view listeners see the lease's verdict again (agentmanager's Failover takes over
        // or rejoins), as after a view change.
        lease.onVerdict(() -> events.execute(() -> afterView(view)));
        onView(channel.getView());
        heartbeats = threads.newThread(this::beat);
        heartbeats.setName("siebog-heartbeats");
        heartbeats.setDaemon(true);
        heartbeats.start();
        LOG.info(() -> "Siebog node " + name + " joined the cluster; members " + members() + "; it takes the other nodes' links on "
                + transport.getBindAddress().getHostAddress() + ":" + linkServer.port());
    }

    /** This node's right to admit and handle messages for its agents. */
    public NodeLease lease() {
        return lease;
    }

    /**
     * Answers another node's heartbeat ({@link NodeLease}): yes while it is in this node's view and on
     * the node list. A node that took itself off the list (it is stopping, or rejoining) is no longer
     * one whose agents this node leaves alone, so its lease must not be renewed from here.
     */
    public byte[] heartbeatFrom(NodeOp.Heartbeat heartbeat) {
        // Without its copies of the caches this node cannot tell who is on the node list: it renews nobody's lease.
        NodeOp.Heartbeat.Verdict verdict = !copiesDropped.get() && nodes.containsKey(heartbeat.node())
                ? lease.answer(heartbeat.node(), heartbeat.session()) : NodeOp.Heartbeat.Verdict.NOT_IN_VIEW;
        return new NodeOp.Heartbeat.Answer(verdict, lease.members(), lease.lastYesAgo()).toBytes();
    }

    /** Takes this node off the node list: the others take over whatever the directory still places on it. */
    public void unregister() {
        nodes.remove(name);
    }

    /** Puts this node (back) on the node list: from now on it takes agents. */
    public void register() {
        nodes.put(name, httpAddress);
    }

    /**
     * Puts this node back on the node list when it is missing while it should be there: when a split
     * heals, the caches keep the majority's copy of the list (PREFERRED_ALWAYS), which had dropped
     * this node — also when the node had already put itself back, rejoining, before the caches merged.
     * Without this the others would answer its heartbeats no forever, and list the cluster without it.
     */
    private void stayRegistered() {
        if (nodes != null && !leaving && !copiesDropped.get() && lease.settled() && !lease.mustRejoin() && !lease.rejoiningNow()
                && !nodes.containsKey(name) && registering.compareAndSet(false, true)) {
            LOG.info(() -> name + " is missing from the node list (a merge kept a copy without it): it puts itself back");
            // Not waited for: the heartbeats must not wait on a cache that is still merging.
            nodes.withFlags(Flag.IGNORE_RETURN_VALUES).putAsync(name, httpAddress).whenComplete((ok, failure) -> registering.set(false));
        }
    }

    private void beat() {
        long every = NodeLease.heartbeatMillis();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                lease.beat((node, request) -> request(node, request, NodeLease.LEASE_MS), this::registered);
                stayRegistered();
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a round of heartbeats failed", e);
            }
        }
    }

    /**
     * A node that takes itself off the node list (it is stopping, or rejoins after it lost touch,
     * {@link NodeLease}) is no longer a member although it is still in the view: it no longer counts
     * towards the quorum, and the view's listeners hear of it as of a view change, so that the others
     * take over what it held. When it puts itself back on the list (it has rejoined, empty) it counts
     * again: no view change brings it back, as it never left the view.
     */
    @Listener(observation = Listener.Observation.POST)
    public final class Departures {

        @CacheEntryCreated
        public void created(CacheEntryEvent<String, String> event) {
            if (view != null && !event.getKey().equals(name) && addresses.containsKey(event.getKey())) {
                lease.rejoined(event.getKey());
            }
        }

        @CacheEntryRemoved
        public void removed(CacheEntryEvent<String, String> event) {
            View current = view;
            if (current != null && !event.getKey().equals(name) && addresses.containsKey(event.getKey())) {
                lease.left(event.getKey());
                events.execute(() -> afterView(current));
            }
        }
    }

    /**
     * {@code node}, outside this node's view, says its side of a split went on without this node
     * ({@link NodeLease#wentOnWithout}): before the two sides merge, this node drops its copies of the
     * caches (LocalCopies says why), and holds the merge back until it has.
     */
    private void leftBehindBy(String node) {
        if (!copiesDropped.compareAndSet(false, true)) {
            return;
        }
        links.holdBackMerge(true);
        threads.newThread(() -> {
            try {
                copies.drop();
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "could not drop " + name + "'s copies of the caches (" + node + "'s side went on without it)", e);
            } finally {
                links.holdBackMerge(false);
            }
        }).start();
    }

    /**
     * Takes this node's copies of the caches again, fresh from the others, if it dropped them: the
     * first step of its rejoining (agentmanager's Failover), back in a view with the quorum.
     */
    public void retakeCopies() {
        if (copiesDropped.get()) {
            copies.retake();
            copiesDropped.set(false);
        }
    }

    private void copiesRetaken() {
        if (leaving) {
            return; // the application is going: nobody listens any more
        }
        nodes.addListener(departures);
        copiesRetaken.fire(new CopiesRetaken());
    }

    @PreDestroy
    synchronized void leave() {
        if (channel == null) {
            return;
        }
        leaving = true;
        if (heartbeats != null) {
            heartbeats.interrupt();
        }
        try {
            retakeCopies(); // the caches outlive the application: the next deployment must find them running
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not take " + name + "'s copies of the caches again while leaving: they stay stopped until the server restarts", e);
        }
        try {
            nodes.withFlags(Flag.IGNORE_RETURN_VALUES).remove(name);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "could not unregister " + name + " while leaving", e);
        }
        try {
            dispatcher.close();
        } catch (java.io.IOException e) {
            LOG.log(Level.FINE, "closing the dispatcher", e);
        }
        channel.close();
        channel = null;
        linkServer.close();
        LinkProbes.uninstall(mainChannel);
        PausedPeers.release(mainChannel.getProtocolStack().getTransport());
    }

    public String name() {
        return name;
    }

    /** The nodes kept out of the cluster because not every node hears them ({@link Reachability}), by name; empty when every node hears every other. */
    public List<String> keptOut() {
        LinkProbes current = links;
        return current == null ? List.of() : current.keptOut().stream().sorted().toList();
    }

    /** The live Siebog nodes in view order: the same list, in the same order, on every node. */
    public List<String> members() {
        View v = view;
        List<String> members = new ArrayList<>();
        if (v == null) {
            members.add(name);
            return members;
        }
        for (Address a : v.getMembers()) {
            String member = NameCache.get(a);
            if (member != null && (member.equals(name) || registered(member))) {
                members.add(member);
            }
        }
        return members;
    }

    /**
     * Every node in the JGroups view, in view order, Siebog running on it or not yet: a node joins the
     * view when its server starts and is one of {@link #members()} once its deployment has registered.
     */
    public List<String> viewMembers() {
        View v = view;
        if (v == null) {
            return List.of(name);
        }
        List<String> names = new ArrayList<>();
        for (Address a : v.getMembers()) {
            String member = NameCache.get(a);
            if (member != null) {
                names.add(member);
            }
        }
        return names;
    }

    /**
     * Whether {@code node} is on the node list. A node that dropped its copies of the caches (it was
     * left behind by a split, LocalCopies) reads no list until it rejoins: meanwhile it counts every
     * node of its view, which is whom its heartbeats must reach to settle the view it rejoins in.
     */
    private boolean registered(String node) {
        return copiesDropped.get() || nodes.containsKey(node);
    }

    public boolean isMember(String node) {
        return members().contains(node);
    }

    /** The HTTP address ({@code host:port}) a node registered, or null. */
    public String httpAddress(String node) {
        return nodes.get(node);
    }

    /** Whether {@code node} is in this node's JGroups view. */
    private boolean inView(String node) {
        return addresses.containsKey(node);
    }

    /** The port this node takes the other nodes' links on ({@link NodeOp.LinkPort}). */
    public int linkPort() {
        return linkServer.port();
    }

    /**
     * A connection to {@code node}'s link server, its TLS handshake done: at the address JGroups
     * reaches the node at, on the port it says when asked. Fails when the node is not in the view,
     * does not answer, or cannot be reached within {@link HandshakeTimeoutSockets#HANDSHAKE_TIMEOUT_MS} twice over.
     */
    Socket connectLink(String node) throws IOException {
        Address to = addresses.get(node);
        if (to == null) {
            throw new IOException(node + " is not in the cluster");
        }
        int port;
        try {
            port = NodeOp.LinkPort.read(request(node, new NodeOp.LinkPort().toBytes(), HandshakeTimeoutSockets.HANDSHAKE_TIMEOUT_MS)
                    .get(2L * HandshakeTimeoutSockets.HANDSHAKE_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while asking " + node + " for its link's port");
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException(node + " did not say which port its link takes: " + e, e);
        }
        if (!(mainChannel.down(new org.jgroups.Event(org.jgroups.Event.GET_PHYSICAL_ADDRESS, to)) instanceof IpAddress physical)) {
            throw new IOException("JGroups knows no address of " + node);
        }
        TP transport = mainChannel.getProtocolStack().getTransport();
        Socket socket = transport.getSocketFactory().createSocket("siebog-link");
        try {
            socket.setTcpNoDelay(true);
            socket.setSendBufferSize(LinkServer.SEND_BUFFER_BYTES);
            socket.connect(new InetSocketAddress(physical.getIpAddress(), port), HandshakeTimeoutSockets.HANDSHAKE_TIMEOUT_MS);
            if (socket instanceof SSLSocket tls) {
                tls.startHandshake(); // within the factory's timeout (HandshakeTimeoutSockets): a paused node does not answer
            }
            socket.setSoTimeout(0);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Threads for the links (their answers' readers). */
    ManagedThreadFactory threads() {
        return threads;
    }

    /** Called with the new member list whenever a node joins or leaves. */
    public void onViewChange(Consumer<List<String>> listener) {
        viewListeners.add(listener);
    }

    /**
     * Sends a request to {@code node} and completes with its answer; fails when the node is not a
     * member, leaves before answering, or does not answer within 30 s.
     */
    public CompletableFuture<byte[]> request(String node, byte[] request) {
        return request(node, request, REQUEST_TIMEOUT_MS);
    }

    private CompletableFuture<byte[]> request(String node, byte[] request, long timeoutMillis) {
        Address to = addresses.get(node);
        if (to == null) {
            return CompletableFuture.failedFuture(new RemoteNodeException(node, "it is not in the cluster"));
        }
        try {
            CompletableFuture<byte[]> answer = dispatcher.sendMessageWithFuture(new BytesMessage(to, request),
                    RequestOptions.SYNC().timeout(timeoutMillis));
            return answer;
        } catch (Exception e) {
            return CompletableFuture.failedFuture(new RemoteNodeException(node, e.toString()));
        }
    }

    private void onView(View newView) {
        Map<String, Address> byName = new HashMap<>();
        for (Address a : newView.getMembers()) {
            String member = NameCache.get(a);
            if (member != null) {
                byName.put(member, a);
            }
        }
        addresses = byName;
        view = newView;
        List<String> names = newView.getMembers().stream().map(NameCache::get).filter(java.util.Objects::nonNull).toList();
        lease.viewChanged(NameCache.get(newView.getViewId().getCreator()) + "#" + newView.getViewId().getId(), names);
        // Listeners and cache updates may block on Infinispan: never on the JGroups thread that delivers views.
        events.execute(() -> afterView(newView));
    }

    private synchronized void afterView(View newView) {
        Map<String, Address> addresses = this.addresses;
        // Forget nodes that left without unregistering (killed); every survivor may do it, it is
        // idempotent. Not waited for: during the view change the write waits for the caches' new
        // topology (up to 300 ms), and the takeover of the departed node's agents must not. Only a
        // node whose view is settled does: another node that still has them in its view takes the
        // removal for a graceful leave (Departures) and stops counting them, and a minority that
        // removed the majority's nodes would shrink the quorum of its own other members until the
        // minority held it (two of five cut off, one of them counting itself and the other a quorum),
        // and would leave the node list without them wherever its removals reached.
        if (nodes != null && lease.settled() && !copiesDropped.get()) {
            for (String registered : List.copyOf(nodes.keySet())) {
                if (!addresses.containsKey(registered)) {
                    nodes.withFlags(Flag.IGNORE_RETURN_VALUES).removeAsync(registered).whenComplete((ok, failure) -> {
                        if (failure != null) {
                            LOG.log(Level.FINE, "could not forget departed node " + registered, failure);
                        }
                    });
                }
            }
        }
        stayRegistered();
        List<String> members = members();
        LOG.info(() -> "cluster view " + newView.getViewId() + ": Siebog nodes " + members);
        for (Consumer<List<String>> listener : viewListeners) {
            try {
                listener.accept(members);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a view listener failed", e);
            }
        }
    }

}
