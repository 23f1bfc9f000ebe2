package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OriginPolicyTest {

    private static final OriginPolicy NONE_LISTED = OriginPolicy.parse(null);

    @Test
    void theNodesOwnOriginIsAdmittedAndAnyOtherIsNot() {
        assertTrue(NONE_LISTED.admits("http://127.0.0.1:8080", "http", "127.0.0.1:8080"));
        assertTrue(NONE_LISTED.admits("HTTP://Siebog.Example.org", "http", "siebog.example.org:80"), "case and default port");
        assertTrue(NONE_LISTED.admits("https://siebog.example.org:443", "https", "siebog.example.org"));
        assertFalse(NONE_LISTED.admits("http://127.0.0.1:8081", "http", "127.0.0.1:8080"), "another port");
        assertFalse(NONE_LISTED.admits("https://127.0.0.1:8080", "http", "127.0.0.1:8080"), "another scheme");
        assertFalse(NONE_LISTED.admits("http://evil.example", "http", "siebog.example.org"));
        assertFalse(NONE_LISTED.admits("null", "http", "127.0.0.1:8080"), "a sandboxed page");
        assertFalse(NONE_LISTED.admits("http://127.0.0.1:8080", "http", null), "no Host: no own origin to compare with");
    }

    @Test
    void programsSendNoOriginAndAreAdmitted() {
        assertTrue(NONE_LISTED.admits(null, "http", "127.0.0.1:8080"));
    }

    @Test
    void listedOriginsAreAdmittedAndStarOnlyWhenListed() {
        OriginPolicy listed = OriginPolicy.parse(" https://lab.example.org , http://10.0.0.5:8000,null");
        assertTrue(listed.admits("https://LAB.example.org:443", "http", "node1:8080"));
        assertTrue(listed.admits("http://10.0.0.5:8000", "http", "node1:8080"));
        assertTrue(listed.admits("null", "http", "node1:8080"), "listed exactly");
        assertFalse(listed.admits("http://10.0.0.5", "http", "node1:8080"));
        assertFalse(listed.anyOrigin());

        OriginPolicy any = OriginPolicy.parse("*");
        assertTrue(any.admits("http://anything.example", "http", "node1:8080"));
    }

    @Test
    void originsAreComparedNormalised() {
        assertEquals("http://example.org", OriginPolicy.normalise("HTTP://Example.ORG:80"));
        assertEquals("https://example.org:8443", OriginPolicy.normalise("https://example.org:8443"));
        assertEquals("http://[::1]:8080", OriginPolicy.normalise("http://[::1]:8080"));
        assertEquals("not a url", OriginPolicy.normalise("not a url"));
    }
}
