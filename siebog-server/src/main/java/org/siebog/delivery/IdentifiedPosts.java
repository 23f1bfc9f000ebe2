package org.siebog.delivery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.SiebogException;
import org.siebog.api.Topics;
import org.siebog.cluster.ClusterNode;
import org.siebog.message.MessageId;

/**
 * Posts from outside agents under message identities fixed before the post, so that the same
 * message posted again, through any node, reaches each receiver under the identity it had the
 * first time: a stateful receiver that admitted it answers the repeat "admitted" and drops it (its
 * dedupe window), one that never got it admits it now. A REST post with an {@code Idempotency-Key}
 * stands on this; the REST layer keeps the identities cluster-wide.
 *
 * <p>The identities come from an origin of their own, this node in this boot, not from the one
 * plain posts are numbered under: the router numbers a plain post as it routes it, too late for the
 * numbers to be stored first. A message so numbered enters where a message routed from another node
 * does, at {@link MessageRouter#admitHere}, which takes the identity it carries and sends it on to
 * wherever its receiver is, in order with what this node sent it before (but that an agent that has
 * just moved here may get it before this node's earlier messages, still on their way through its old
 * node); a balanced stateless agent gets it on this node's instance. Each receiver admits it on its
 * own: the all-or-none admission of one node's receivers that a plain post gets does not hold, and
 * need not, since posting again admits it to whichever receivers missed it.
 *
 * <p>A message to a topic is another matter: its subscribers are chosen anew for each posting, so
 * a repeat may reach others than the first copy did, and there is no list of them to number first.
 * It gets one identity, for every receiver (named or subscribed) and every posting: the topic's next
 * number under an origin kept for keyed topic posts (this node in this boot, apart from the one
 * above, whose numbers are per receiver). It goes by the plain path under that identity
 * ({@link SameIdentity}), as a delayed post does: a subscriber that admitted an earlier copy drops
 * the repeat, even one that comes late, after later posts; one that missed it, or subscribed since,
 * admits it now; a topic group's member is the same one at every posting. The topic's numbers make
 * one window per origin in each subscriber, with a hole where a post went to another member of its
 * group or was never admitted.
 */
@ApplicationScoped
public class IdentifiedPosts {

    @Inject
    MessageRouter router;

    @Inject
    ClusterNode cluster;

    private volatile Origin origin;
    private volatile Origin topicOrigin;

    /**
     * New identities for the message's receivers, for its first post; for a message to a topic, one
     * identity, under its first topic, that every receiver gets.
     *
     * @throws MalformedMessageException (or its kin) the message breaks a bound
     */
    public Map<AID, MessageId> identities(ACLMessage message) {
        MessageLimits.check(message);
        Optional<AID> topic = firstTopic(message);
        if (topic.isPresent()) {
            return Map.of(topic.get(), topicOrigin().next(topic.get()));
        }
        Origin numbering = origin();
        Map<AID, MessageId> ids = new LinkedHashMap<>();
        for (AID receiver : message.receivers()) {
            ids.put(receiver, numbering.next(receiver));
        }
        return ids;
    }

    /**
     * Posts {@code message} to each of its receivers under its identity in {@code ids}. Completes as
     * {@link org.siebog.api.MessageManager#postAsync} does: once every receiver's node has admitted it
     * (or found it a repeat), or with the first refusal.
     *
     * @throws IllegalArgumentException {@code ids} has no identity for one of the receivers
     */
    public CompletableFuture<Void> post(ACLMessage message, Map<AID, MessageId> ids) {
        MessageLimits.check(message);
        Optional<AID> topic = firstTopic(message);
        if (topic.isPresent()) {
            return postToTopic(message, Optional.ofNullable(ids.get(topic.get()))
                    .orElseThrow(() -> new IllegalArgumentException("no message identity for the topic " + topic.get())));
        }
        for (AID receiver : message.receivers()) {
            if (!ids.containsKey(receiver)) {
                throw new IllegalArgumentException("no message identity for the receiver " + receiver);
            }
        }
        List<CompletableFuture<Void>> admissions = new ArrayList<>();
        try {
            for (AID receiver : message.receivers()) {
                admissions.add(router.admitHere(receiver, ids.get(receiver), message));
            }
        } catch (SiebogException refused) {
            // Those before it may have admitted it: posting again admits it to the rest, and they drop the repeat.
            admissions.add(CompletableFuture.failedFuture(refused));
        }
        return MessageManagerBean.admission(CompletableFuture.allOf(admissions.toArray(CompletableFuture[]::new)));
    }

    /** To every receiver, named or subscribed, under {@code id}: by the plain path, which deals a topic's messages. */
    private CompletableFuture<Void> postToTopic(ACLMessage message, MessageId id) {
        CompletableFuture<Void> posted;
        try {
            posted = router.post(new SameIdentity(id), message);
        } catch (SiebogException refused) {
            posted = CompletableFuture.failedFuture(refused);
        }
        return MessageManagerBean.admission(posted);
    }

    private static Optional<AID> firstTopic(ACLMessage message) {
        return message.receivers().stream().filter(Topics::isTopic).findFirst();
    }

    private Origin origin() {
        Origin o = origin;
        if (o == null) {
            o = origin = new NodeOrigin(cluster.name());
        }
        return o;
    }

    private Origin topicOrigin() {
        Origin o = topicOrigin;
        if (o == null) {
            o = topicOrigin = new NodeOrigin(cluster.name() + "/topics");
        }
        return o;
    }
}
