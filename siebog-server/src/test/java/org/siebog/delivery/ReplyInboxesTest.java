package org.siebog.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;

class ReplyInboxesTest {

    private static final String UUID_TEXT = UUID.randomUUID().toString();

    @Test
    void anInboxNameSaysItsNodeEvenWhenTheNodeNameHasDashes() {
        assertEquals(Optional.of("node1"), ReplyInboxes.nodeOf(new AID("reply-node1-" + UUID_TEXT, "siebog")));
        assertEquals(Optional.of("eu-west-2"), ReplyInboxes.nodeOf(new AID("reply-eu-west-2-" + UUID_TEXT, "siebog")));
    }

    @Test
    void otherNamesAreNotInboxes() {
        for (String name : new String[] {"reply", "reply-node1", "reply-" + UUID_TEXT, "reply-node1-not-a-uuid-at-all-xxxxxxxxxxxxx",
                "reply-node1_" + UUID_TEXT, "answer-node1-" + UUID_TEXT, "counter-7"}) {
            assertEquals(Optional.empty(), ReplyInboxes.nodeOf(new AID(name, "siebog")), name);
        }
    }
}
