package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.MessageTooLargeException;
import org.siebog.api.Performative;
import org.siebog.api.Topics;
import org.siebog.message.MessageId;

/** What is refused, or decided, before any identity is handed out or anything routed: no router or cluster is needed for it. */
class IdentifiedPostsTest {

    private static final AID COUNTER = new AID("counter", "siebog");
    private final IdentifiedPosts posts = new IdentifiedPosts();

    @Test
    void aSameIdentityIsOneForEveryReceiverAndEveryPostingMadeFromAKeyOfAKind() {
        SameIdentity delayed = fromKey("delayed", "k1");
        assertEquals(delayed.next(COUNTER), delayed.next(new AID("tally", "siebog")), "one identity for every receiver");
        assertEquals(delayed, fromKey("delayed", "k1"), "and at every posting");
        assertEquals(new MessageId("delayed:k1", SameIdentity.counterOf("k1")), delayed.next(COUNTER));
        assertNotEquals(delayed.next(COUNTER), fromKey("keyed", "k1").next(COUNTER), "kinds apart");
        assertNotEquals(delayed.next(COUNTER), fromKey("delayed", "k2").next(COUNTER));
    }

    @Test
    void aPostToATopicNeedsTheTopicsIdentity() {
        ACLMessage published = ACLMessage.builder(Performative.INFORM).receiver(COUNTER).receiver(Topics.topic("prices", "siebog"))
                .content("1").build();
        String refusal = assertThrows(IllegalArgumentException.class,
                () -> posts.post(published, Map.of(COUNTER, new MessageId("node1/x", 1)))).getMessage();
        assertTrue(refusal.contains("topic:prices@siebog"), refusal);
    }

    @Test
    void aMessageOverTheBoundsIsRefusedAsAPlainPostIs() {
        assertThrows(MalformedMessageException.class, () -> posts.identities(ACLMessage.builder(Performative.INFORM).content("1").build()));
        ACLMessage huge = ACLMessage.builder(Performative.INFORM).receiver(COUNTER).content("x".repeat((1 << 20) + 1)).build();
        assertThrows(MessageTooLargeException.class, () -> posts.identities(huge));
    }

    @Test
    void aPostNeedsAnIdentityForEveryReceiver() {
        ACLMessage message = ACLMessage.builder(Performative.INFORM).receiver(COUNTER).receiver(new AID("tally", "siebog")).build();
        String refusal = assertThrows(IllegalArgumentException.class,
                () -> posts.post(message, Map.of(COUNTER, new MessageId("node1/x", 1)))).getMessage();
        assertTrue(refusal.contains("tally@siebog"), refusal);
    }

    /** The identity a post under {@code key} goes under, as {@link DelayedPosts} makes it for {@code delayed}. */
    private static SameIdentity fromKey(String kind, String key) {
        return new SameIdentity(new MessageId(kind + ":" + key, SameIdentity.counterOf(key)));
    }
}
