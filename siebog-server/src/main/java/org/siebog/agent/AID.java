package org.siebog.agent;

import java.io.Serializable;
import java.util.Objects;

/**
 * Agent identifier: a name unique in the platform plus the platform's name. Its string form
 * {@code name@platform} is what travels in messages and URLs; it never encodes where the agent
 * runs, so it stays the same when the agent moves or fails over.
 */
public record AID(String name, String platform) implements Serializable {

    /** The platform name used when none is configured (the cluster's name). */
    public static final String DEFAULT_PLATFORM = "siebog";

    public AID {
        requireToken(name, "name");
        requireToken(platform, "platform");
    }

    /** Parses {@code name@platform}; a bare {@code name} gets the default platform. */
    public static AID parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("an AID must not be empty; expected 'name@platform'");
        }
        int at = text.lastIndexOf('@');
        return at < 0 ? new AID(text, DEFAULT_PLATFORM) : new AID(text.substring(0, at), text.substring(at + 1));
    }

    // Written out: the record's generated equals and hashCode go through method handles, and AIDs
    // are compared on every delivery (mailbox look-ups, agents matching senders).
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof AID aid && name.equals(aid.name) && platform.equals(aid.platform);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + platform.hashCode();
    }

    @Override
    public String toString() {
        return name + '@' + platform;
    }

    private static void requireToken(String value, String what) {
        Objects.requireNonNull(value, () -> "an AID's " + what + " must not be null");
        if (value.isEmpty() || value.length() > 200) {
            throw new IllegalArgumentException("an AID's " + what + " must have 1 to 200 characters, got '" + value + "'");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            // '@' separates name from platform and '/' would break the AID's use in URLs.
            if (c == '@' || c == '/' || Character.isWhitespace(c) || Character.isISOControl(c)) {
                throw new IllegalArgumentException(
                        "an AID's " + what + " must not contain '@', '/', spaces or control characters, got '" + value + "'");
            }
        }
    }
}
