package org.siebog.rest;

import java.util.List;

import org.siebog.api.MalformedMessageException;

/**
 * A client's name for one message it posts ({@code Idempotency-Key}), and whose name it is: keys
 * are per principal, so no user's key meets another's, neither colliding with it nor telling
 * whether the other has used it.
 *
 * @param principal the caller's principal name
 * @param key       1 to {@value #MAX_CHARS} printable ASCII characters
 */
record IdempotencyKey(String principal, String key) {

    static final String HEADER = "Idempotency-Key";
    static final int MAX_CHARS = 128;

    /**
     * The key a request names in its {@value #HEADER} headers, or null when it names none.
     *
     * @throws MalformedMessageException more than one header, or a key that is empty, too long or
     *                                   not printable ASCII
     */
    static IdempotencyKey of(String principal, List<String> headers) {
        if (headers == null || headers.isEmpty()) {
            return null;
        }
        if (headers.size() > 1) {
            throw new MalformedMessageException("a request may carry one " + HEADER + " header; this one carries " + headers.size());
        }
        String key = headers.get(0);
        String wrong = key.isEmpty() ? "it is empty"
                : key.length() > MAX_CHARS ? "it has " + key.length() + " characters"
                : notPrintable(key);
        if (wrong != null) {
            throw new MalformedMessageException("the " + HEADER + " header must be 1 to " + MAX_CHARS
                    + " printable ASCII characters (space to '~'), such as a UUID; " + wrong);
        }
        return new IdempotencyKey(principal, key);
    }

    /** What is wrong with {@code key}'s characters, or null when nothing is. */
    private static String notPrintable(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < ' ' || c > '~') {
                return String.format("character %d is U+%04X", i + 1, (int) c);
            }
        }
        return null;
    }

    /**
     * Its key in the cache: the client's key first, since it holds no line break, so the first one
     * ends it whatever the principal's name holds, and no two callers' keys can come out the same.
     */
    String cacheKey() {
        return key + "\n" + principal;
    }
}
