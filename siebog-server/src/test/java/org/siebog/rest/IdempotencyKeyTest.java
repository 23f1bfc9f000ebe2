package org.siebog.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.siebog.api.MalformedMessageException;

class IdempotencyKeyTest {

    @Test
    void aRequestWithoutTheHeaderHasNoKey() {
        assertNull(IdempotencyKey.of("alice", null));
        assertNull(IdempotencyKey.of("alice", List.of()));
    }

    @Test
    void oneToOneHundredTwentyEightPrintableAsciiCharactersAreAKey() {
        String everyPrintable = new StringBuilder().appendCodePoint(' ').append("!\"#$%&'()*+,-./0123456789:;<=>?@")
                .append("ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~").toString();
        for (String key : List.of("k", "3f1c2a9e-7b1d-4f3e-9c2b-0d5e8a6f4b21", "a".repeat(128), everyPrintable)) {
            assertEquals(new IdempotencyKey("alice", key), IdempotencyKey.of("alice", List.of(key)), key);
        }
    }

    @Test
    void anEmptyOrLongerKeyIsRefusedSayingWhatAKeyIs() {
        String empty = refused(List.of(""));
        assertTrue(empty.contains("1 to 128 printable ASCII characters") && empty.contains("it is empty"), empty);
        String longer = refused(List.of("a".repeat(129)));
        assertTrue(longer.contains("it has 129 characters"), longer);
    }

    @Test
    void aKeyWithAnythingButPrintableAsciiIsRefusedNamingTheCharacter() {
        assertTrue(refused(List.of("caf\u00e9")).contains("character 4 is U+00E9"));
        assertTrue(refused(List.of("tab\there")).contains("character 4 is U+0009"));
        assertTrue(refused(List.of("del\u007f")).contains("character 4 is U+007F"));
        assertTrue(refused(List.of("\u041a\u043b\u044e\u0447")).contains("character 1 is U+041A"));
    }

    @Test
    void twoKeyHeadersAreRefused() {
        String two = refused(List.of("a", "b"));
        assertTrue(two.contains("one Idempotency-Key header") && two.contains("carries 2"), two);
    }

    @Test
    void oneKeyOfTwoCallersIsTwoKeysInTheCache() {
        assertNotEquals(IdempotencyKey.of("alice", List.of("k")).cacheKey(), IdempotencyKey.of("bob", List.of("k")).cacheKey());
        assertEquals(IdempotencyKey.of("alice", List.of("k")).cacheKey(), IdempotencyKey.of("alice", List.of("k")).cacheKey());
    }

    @Test
    void noTwoCallersAndKeysMakeTheSameCacheKeyWhateverThePrincipalsNamesHold() {
        // Joined by a character keys may hold, ("a b", "c") and ("a", "b c") would meet; a principal may hold a line break.
        List<IdempotencyKey> keys = List.of(new IdempotencyKey("c", "a b"), new IdempotencyKey("b c", "a"),
                new IdempotencyKey("b\nc", "a"), new IdempotencyKey("c", "a b"), new IdempotencyKey("\nc", "a b"),
                new IdempotencyKey("b\n", "a"), new IdempotencyKey("", "a b"));
        assertEquals(keys.stream().distinct().count(), keys.stream().map(IdempotencyKey::cacheKey).distinct().count(), keys::toString);
    }

    @Test
    void aKeyReusedForAnotherMessageIs422SayingSoAndWhatToDo() {
        IdempotencyKeyReusedException reused = new IdempotencyKeyReusedException(new IdempotencyKey("alice", "order-7"), 600_000);
        assertEquals(422, reused.status());
        assertEquals("the Idempotency-Key 'order-7' already names a different message of yours, posted within the last 10 minutes; "
                + "this one was not sent. Post it under a new key: a key names one message (the earlier one may be posted again under "
                + "this key, exactly as it was)", reused.getMessage());
        assertTrue(new IdempotencyKeyReusedException(new IdempotencyKey("alice", "k"), 30_000).getMessage().contains("the last 30 s"));
    }

    private static String refused(List<String> headers) {
        String message = assertThrows(MalformedMessageException.class, () -> IdempotencyKey.of("alice", headers)).getMessage();
        assertTrue(message.contains("Idempotency-Key"), message);
        return message;
    }
}
