package org.siebog.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;
import org.siebog.api.TopicSubscription;

class TopicIndexTest {

    private static final AID A = AID.parse("a@p");
    private static final AID B = AID.parse("b@p");
    private static final AID C = AID.parse("c@p");
    private static final AID D = AID.parse("d@p");

    private final TopicIndex index = new TopicIndex();

    @Test
    void everyoneOutsideAGroupGetsEachMessageAndEachGroupOneMemberInTurn() {
        index.put(new TopicSubscription("t", A, null));
        index.put(new TopicSubscription("t", C, "g"));
        index.put(new TopicSubscription("t", B, "g"));
        index.put(new TopicSubscription("t", D, "h"));
        TopicIndex.Subscribers subscribers = index.subscribers("t");
        assertEquals(4, subscribers.size());
        assertEquals(List.of(A, B, D), subscribers.receivers(0), "g's members sorted: b, then c");
        assertEquals(List.of(A, C, D), subscribers.receivers(1));
        assertEquals(List.of(A, B, D), subscribers.receivers(2));
        assertEquals(List.of(A, C, D), subscribers.receivers(-1), "any count picks a member");
        Map<AID, Integer> dealt = new HashMap<>();
        for (long turn = 1; turn <= 100; turn++) {
            subscribers.receivers(turn).forEach(r -> dealt.merge(r, 1, Integer::sum));
        }
        assertEquals(Map.of(A, 100, B, 50, C, 50, D, 100), dealt);
    }

    @Test
    void aTopicWithoutGroupsHandsOutOneSharedList() {
        index.put(new TopicSubscription("t", B, null));
        index.put(new TopicSubscription("t", A, null));
        assertSame(index.subscribers("t").receivers(1), index.subscribers("t").receivers(2), "no list made per message");
        assertEquals(List.of(A, B), index.subscribers("t").receivers(7));
    }

    @Test
    void changesReplaceTheSubscriptionAndRemovalsEmptyTheTopic() {
        index.put(new TopicSubscription("t", A, null));
        index.put(new TopicSubscription("t", A, "g"));
        assertEquals(List.of(new TopicSubscription("t", A, "g")), index.subscriptions("t"));
        assertEquals(1, index.countOf(A));
        index.put(new TopicSubscription("u", A, null));
        assertEquals(List.of(new TopicSubscription("t", A, "g"), new TopicSubscription("u", A, null)), index.subscriptionsOf(A));
        assertEquals(Map.of("t", 1, "u", 1), index.topics());
        index.remove("t", A);
        index.remove("t", A);
        assertEquals(List.of(), index.subscribers("t").receivers(0));
        assertEquals(0, index.countOf("t"));
        assertEquals(Map.of("u", 1), index.topics());
        index.remove("u", A);
        assertEquals(0, index.countOf(A));
        assertEquals(List.of(), index.keys());
    }

    @Test
    void aKeyNamesTheAgentAndTheTopic() {
        String key = TopicIndex.key("news:today", A);
        assertEquals(new TopicSubscription("news:today", A, null), TopicIndex.subscription(key, ""));
        assertEquals(new TopicSubscription("news:today", A, "g"), TopicIndex.subscription(key, "g"));
    }
}
