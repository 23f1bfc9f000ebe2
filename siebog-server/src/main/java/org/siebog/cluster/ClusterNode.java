package org.siebog.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.HashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.siebog.directory.StringCaches;
import org.infinispan.context.Flag;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.fork.ForkChannel;
import org.jgroups.util.NameCache;
import org.siebog.api.RemoteNodeException;

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

    @Resource
    ManagedExecutorService events;

    private ForkChannel channel;
    private MessageDispatcher dispatcher;
    private volatile View view;
    private volatile Map<String, Address> addresses = Map.of();
    private final List<Consumer<List<String>>> viewListeners = new CopyOnWriteArrayList<>();
    private String name;

    /** Joins the cluster; {@code requests} serves what other nodes ask of this one. */
    public synchronized void start(String nodeName, String httpAddress, RequestHandler requests) {
        if (channel != null) {
            return;
        }
        name = nodeName;
        try {
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
        onView(channel.getView());
        LOG.info(() -> "Siebog node " + name + " joined the cluster; members " + members());
    }

    @PreDestroy
    synchronized void leave() {
        if (channel == null) {
            return;
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
    }

    public String name() {
        return name;
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
            if (member != null && (member.equals(name) || nodes.containsKey(member))) {
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

    public boolean isMember(String node) {
        return members().contains(node);
    }

    /** The HTTP address ({@code host:port}) a node registered, or null. */
    public String httpAddress(String node) {
        return nodes.get(node);
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
        Address to = addresses.get(node);
        if (to == null) {
            return CompletableFuture.failedFuture(new RemoteNodeException(node, "it is not in the cluster"));
        }
        try {
            CompletableFuture<byte[]> answer = dispatcher.sendMessageWithFuture(new BytesMessage(to, request),
                    RequestOptions.SYNC().timeout(REQUEST_TIMEOUT_MS));
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
        // Listeners and cache updates may block on Infinispan: never on the JGroups thread that delivers views.
        events.execute(() -> afterView(newView));
    }

    private synchronized void afterView(View newView) {
        Map<String, Address> addresses = this.addresses;
        // Forget nodes that left without unregistering (killed); every survivor may do it, it is
        // idempotent. Not waited for: during the view change the write waits for the caches' new
        // topology (up to 300 ms), and the takeover of the departed node's agents must not.
        if (nodes != null) {
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
