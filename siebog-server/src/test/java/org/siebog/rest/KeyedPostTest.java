package org.siebog.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.json.Json;

import org.junit.jupiter.api.Test;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.message.ACLMessageJson;
import org.siebog.message.MessageId;

class KeyedPostTest {

    private static final String POSTED = """
            {"performative": "INFORM", "receivers": ["counter@siebog", "tally@siebog"], "content": "1",
             "conversationId": "c", "userProperties": {"b": "2", "a": "1"}}""";

    @Test
    void theDigestIsTheSha256OfTheMessageInTheContractsForm() {
        ACLMessage message = posted(POSTED);
        String contract = "{\"performative\":\"INFORM\",\"receivers\":[\"counter@siebog\",\"tally@siebog\"],\"content\":\"1\","
                + "\"conversationId\":\"c\",\"userProperties\":{\"a\":\"1\",\"b\":\"2\"}}";
        assertEquals(contract, ACLMessageJson.write(message));
        // printf '%s' "$contract" | sha256sum
        assertEquals("248665e6683b5b14606adf14b89c07d755e2adbbb10ef3ca910191ddf6a250e1", KeyedPost.digestOf(message));
        assertTrue(KeyedPost.digestOf(message).matches("[0-9a-f]{64}"));
    }

    @Test
    void theSameMessageSpeltOtherwiseHasTheSameDigest() {
        String reordered = """
                {"content":"1","userProperties":{"a":"1","b":"2"},"conversationId":"c",
                      "receivers":["counter@siebog","tally@siebog","counter@siebog"],"performative":"INFORM","sender":null}""";
        assertEquals(KeyedPost.digestOf(posted(POSTED)), KeyedPost.digestOf(posted(reordered)));
    }

    @Test
    void aMessageThatDiffersInAnyFieldHasAnotherDigest() {
        String digest = KeyedPost.digestOf(posted(POSTED));
        for (String other : List.of(POSTED.replace("\"1\",", "\"2\","), POSTED.replace("INFORM", "REQUEST"),
                POSTED.replace("\"c\"", "\"d\""), POSTED.replace("\"b\": \"2\"", "\"b\": \"3\""),
                POSTED.replace("\"counter@siebog\", \"tally@siebog\"", "\"tally@siebog\", \"counter@siebog\""),
                POSTED.replace(", \"tally@siebog\"", ""), POSTED.replace("\"content\": \"1\"", "\"content\": \"1\", \"language\": \"en\""))) {
            assertNotEquals(digest, KeyedPost.digestOf(posted(other)), other);
        }
    }

    @Test
    void theStoredValueIsJsonWithTheDigestAndEachReceiversIdentityInOrder() {
        Map<AID, MessageId> ids = new LinkedHashMap<>();
        ids.put(AID.parse("tally@siebog"), new MessageId("node2/6f1c0d2e-98c1-4b7e-a1d2-3c4b5a697887", 7));
        ids.put(AID.parse("counter@siebog"), new MessageId("node2/6f1c0d2e-98c1-4b7e-a1d2-3c4b5a697887", Long.MAX_VALUE));
        ids.put(AID.parse("reply-node1-0b9e4c3a-5d6f-4e7a-8b9c-0d1e2f3a4b5c@siebog"), MessageId.unnumbered("node2/6f1c0d2e-98c1-4b7e-a1d2-3c4b5a697887"));
        KeyedPost stored = new KeyedPost("ab".repeat(32), ids);
        String json = stored.toJson();
        assertEquals("{\"digest\":\"" + "ab".repeat(32) + "\",\"ids\":{"
                + "\"tally@siebog\":{\"origin\":\"node2/6f1c0d2e-98c1-4b7e-a1d2-3c4b5a697887\",\"counter\":7},"
                + "\"counter@siebog\":{\"origin\":\"node2/6f1c0d2e-98c1-4b7e-a1d2-3c4b5a697887\",\"counter\":9223372036854775807},"
                + "\"reply-node1-0b9e4c3a-5d6f-4e7a-8b9c-0d1e2f3a4b5c@siebog\":{\"origin\":\"node2/6f1c0d2e-98c1-4b7e-a1d2-3c4b5a697887\",\"counter\":0}}}",
                json);
        KeyedPost read = KeyedPost.fromJson(json);
        assertEquals(stored, read);
        assertEquals(List.copyOf(ids.keySet()), List.copyOf(read.ids().keySet()), "the receivers keep their order");
    }

    private static ACLMessage posted(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return ACLMessageJson.fromJson(reader.readObject());
        }
    }
}
