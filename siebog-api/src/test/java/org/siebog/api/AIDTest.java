package org.siebog.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class AIDTest {

    @Test
    void stringFormIsNameAtPlatform() {
        AID aid = AID.parse("ping@lab");
        assertEquals("ping", aid.name());
        assertEquals("lab", aid.platform());
        assertEquals("ping@lab", aid.toString());
        assertEquals(aid, AID.parse(aid.toString()));
    }

    @Test
    void aBareNameGetsTheDefaultPlatform() {
        assertEquals(new AID("ping", "siebog"), AID.parse("ping"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "@siebog", "ping@", "a b@siebog", "a/b@siebog", "a@b@c", "tab\t@siebog"})
    void malformedAidsAreRefused(String text) {
        assertThrows(IllegalArgumentException.class, () -> AID.parse(text));
    }

    @Test
    void namesOver200CharactersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new AID("x".repeat(201), "siebog"));
    }
}
