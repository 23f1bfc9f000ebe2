package org.siebog.api;

import java.io.Serializable;
import java.util.Objects;

/**
 * An agent's identifier: a name unique in the platform plus the platform's name, string form
 * {@code name@platform}. An AID says who an agent is, never where it runs: it stays the same when
 * the agent moves or its node fails over, so it is safe to keep in state and in messages, and
 * every node resolves it to wherever the agent lives now.
 *
 * <p>AIDs are immutable values, compared by name and platform. Get your own from
 * {@code AbstractAgent.aid()}, another agent's from a message ({@link ACLMessage#sender()}), from
 * {@link AgentInfo#aid()} when you start it, or from its string form:
 *
 * <pre>{@code
 * AID pong = AID.parse("pong@siebog");   // or AID.parse("pong"): the default platform
 * send(ACLMessage.builder(Performative.REQUEST).receiver(pong).content("ping"));
 * }</pre>
 *
 * <p>Both parts hold 1 to 200 characters and no {@code '@'}, {@code '/'}, spaces or control
 * characters. Names of the form {@code reply-NODE-UUID} are taken by the platform's reply inboxes.
 *
 * @param name     the agent's name, unique in its platform
 * @param platform the platform's name ({@code siebog.platform}, by default {@value #DEFAULT_PLATFORM})
 */
public record AID(String name, String platform) implements Serializable {

    /** The platform name used when none is configured (the cluster's name). */
    public static final String DEFAULT_PLATFORM = "siebog";

    /**
     * Checks both parts.
     *
     * @param name     the agent's name, unique in its platform
     * @param platform the platform's name
     * @throws IllegalArgumentException a part is empty, over 200 characters, or holds a character an AID may not hold
     * @throws NullPointerException     a part is null
     */
    public AID {
        requireToken(name, "name");
        requireToken(platform, "platform");
    }

    /**
     * Reads an AID's string form. The platform is what follows the last {@code '@'}; a bare
     * {@code name} gets the {@linkplain #DEFAULT_PLATFORM default platform}.
     *
     * @param text {@code name@platform} or {@code name}
     * @return the AID
     * @throws IllegalArgumentException {@code text} is empty or not a valid AID
     */
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

    /**
     * The AID's string form, as messages, URLs and the JavaScript library write it.
     *
     * @return {@code name@platform}
     */
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
