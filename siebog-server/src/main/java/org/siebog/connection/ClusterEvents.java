package org.siebog.connection;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.RemoteNodes;
import org.siebog.platform.NodeEvent;

/**
 * The cluster's events as this node knows them: those it saw (fired as CDI {@link NodeEvent}s by the
 * package where they happened, or by the view changes here) and those the other nodes told it of.
 * It keeps the last {@link #RECENT} for a stream that starts now, and hands each one to every
 * listener (the streams of {@code GET /api/events}). Costs nothing while nobody listens but the
 * small ring and, for a relayed event, one request to each other node.
 */
@ApplicationScoped
public class ClusterEvents {

    private static final Logger LOG = Logger.getLogger(ClusterEvents.class.getName());
    static final int RECENT = 100;

    @Inject
    ClusterNode cluster;

    @Inject
    RemoteNodes remote;

    private final Deque<NodeEvent> recent = new ArrayDeque<>(); // guarded by itself
    private final Set<Consumer<NodeEvent>> listeners = new LinkedHashSet<>(); // guarded by recent
    private List<String> lastMembers = List.of();

    /** A CDI event of this node: kept, handed on, and told to the other nodes when its type is {@link NodeEvent.Type#relayed()}. */
    void seen(@Observes NodeEvent event) {
        publish(event);
        if (event.type().relayed()) {
            remote.tellOthers(event);
        }
    }

    /** An event another node saw (NodeRequests): kept and handed on, never told again. */
    void toldBy(NodeEvent event) {
        publish(event);
    }

    /**
     * Turns a new view into the nodes that joined and left it, in view order. Read from the JGroups view
     * itself ({@link ClusterNode#viewMembers()}), not from {@code siebogMembers}: a node enters the view
     * before its deployment registers it there, and would otherwise never be seen to join, nor to leave.
     */
    synchronized void viewChanged(List<String> siebogMembers) {
        List<String> members = cluster.viewMembers();
        List<String> before = lastMembers;
        lastMembers = List.copyOf(members);
        if (before.isEmpty()) {
            return; // this node's first view: nobody joined, this node started
        }
        members.stream().filter(n -> !before.contains(n))
                .forEach(n -> publish(NodeEvent.now(NodeEvent.Type.NODE_JOINED, n, Map.of("seenBy", cluster.name()))));
        before.stream().filter(n -> !members.contains(n))
                .forEach(n -> publish(NodeEvent.now(NodeEvent.Type.NODE_LEFT, n, Map.of("seenBy", cluster.name()))));
    }

    /**
     * Hands {@code listener} every event from now on, until {@link #ignore}, and returns the last events
     * before it, oldest first: each event is in the one or handed to the other, never both or neither.
     */
    public List<NodeEvent> listen(Consumer<NodeEvent> listener) {
        synchronized (recent) {
            listeners.add(listener);
            return List.copyOf(recent);
        }
    }

    public void ignore(Consumer<NodeEvent> listener) {
        synchronized (recent) {
            listeners.remove(listener);
        }
    }

    private void publish(NodeEvent event) {
        List<Consumer<NodeEvent>> handTo;
        synchronized (recent) { // with listen(): the event is kept and the listeners read as one step
            recent.addLast(event);
            if (recent.size() > RECENT) {
                recent.removeFirst();
            }
            handTo = List.copyOf(listeners);
        }
        for (Consumer<NodeEvent> listener : handTo) { // outside the lock: a listener takes locks of its own
            try {
                listener.accept(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "an event listener failed", e);
            }
        }
    }
}
