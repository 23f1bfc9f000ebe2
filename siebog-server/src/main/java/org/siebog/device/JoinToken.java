package org.siebog.device;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import org.siebog.platform.Setting;

/**
 * The optional shared secret of a private deployment (a lab's PCs, say): with
 * {@code siebog.device.join-token} set, a {@code join} must carry it as {@code token}; unset, any
 * device may join. Read at every join, so a changed token applies to the next one.
 */
final class JoinToken {

    static final String PROPERTY = Setting.DEVICE_JOIN_TOKEN.property();

    private JoinToken() {
    }

    /** The configured token, or null when joining needs none. */
    static String configured() {
        String token = Setting.DEVICE_JOIN_TOKEN.text().orElse(null);
        return token == null || token.isEmpty() ? null : token;
    }

    /**
     * Why a join showing {@code given} (null when it has no token) is refused under {@code configured},
     * or null when it may join. Compared in constant time, so the answer's timing says nothing about
     * how much of a guess was right.
     */
    static String refusal(String configured, String given) {
        if (configured == null) {
            return null;
        }
        if (given == null) {
            return "this node admits only devices that show its join token: 'join' needs a 'token'";
        }
        boolean same = MessageDigest.isEqual(configured.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
        return same ? null : "the join token is not this node's";
    }
}
