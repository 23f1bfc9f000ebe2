package org.siebog.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MailboxFullException;
import org.siebog.message.MessageId;
import org.siebog.platform.PlatformConfig;

/**
 * Agents leaving this node for another: from the moment an agent's mailbox stops taking messages
 * until its new node has it running, what arrives for it here waits in its departure, in arrival
 * order, unacknowledged (its senders still hold it). Then the departure hands it all on, in order,
 * and closes: later messages find the agent where the directory says it is, and any that still
 * come here are forwarded there ({@link MessageRouter}).
 *
 * <p>A departure holds at most a mailbox's capacity ({@code siebog.agent.mailbox-capacity}); more
 * is refused as a full mailbox is (503). There is one per agent leaving, for as long as the move
 * takes.
 */
@ApplicationScoped
public class Departures {

    /** One message waiting for the agent's new place. */
    private record Waiting(MessageId id, ACLMessage message, CompletableFuture<Void> admitted) {
    }

    /** One agent's departure. */
    static final class Departure {
        private final AID aid;
        private final int capacity;
        private List<Waiting> waiting = new ArrayList<>();
        /** Once set, messages go straight on: the departure is closing. */
        private Function<Delivery, CompletableFuture<Void>> onward;

        Departure(AID aid, int capacity) {
            this.aid = aid;
            this.capacity = capacity;
        }

        /** Takes a message for the agent: held while it moves, handed on once it has arrived. */
        synchronized CompletableFuture<Void> admit(MessageId id, ACLMessage message) {
            if (onward != null) {
                return onward.apply(new Delivery(aid, id, message));
            }
            if (waiting.size() >= capacity) {
                throw new MailboxFullException(aid, capacity);
            }
            Waiting w = new Waiting(id, message, new CompletableFuture<>());
            waiting.add(w);
            return w.admitted();
        }

        /** Hands on what waited, in order, and everything that comes from now on, to {@code onward}. */
        synchronized void handOn(Function<Delivery, CompletableFuture<Void>> to) {
            onward = to;
            for (Waiting w : waiting) {
                CompletableFuture<Void> admitted;
                try {
                    admitted = to.apply(new Delivery(aid, w.id(), w.message()));
                } catch (RuntimeException refused) {
                    admitted = CompletableFuture.failedFuture(refused);
                }
                admitted.whenComplete((ok, failed) -> {
                    if (failed != null) {
                        w.admitted().completeExceptionally(failed);
                    } else {
                        w.admitted().complete(null);
                    }
                });
            }
            waiting = List.of();
        }
    }

    /** A message for an agent, under its sender's identity for it. */
    public record Delivery(AID receiver, MessageId id, ACLMessage message) {
    }

    private final ConcurrentMap<AID, Departure> leaving = new ConcurrentHashMap<>();

    /** Opens {@code aid}'s departure; false when it is leaving already. */
    public boolean open(AID aid) {
        return leaving.putIfAbsent(aid, new Departure(aid, PlatformConfig.SYSTEM.mailboxCapacity())) == null;
    }

    /** The departure of {@code aid}, or null when it is not leaving this node. */
    Departure of(AID aid) {
        return leaving.isEmpty() ? null : leaving.get(aid);
    }

    /** Hands on what waited for {@code aid} through {@code onward}, then closes its departure. */
    public void close(AID aid, Function<Delivery, CompletableFuture<Void>> onward) {
        Departure departure = leaving.get(aid);
        if (departure != null) {
            departure.handOn(onward);
            leaving.remove(aid, departure);
        }
    }
}
