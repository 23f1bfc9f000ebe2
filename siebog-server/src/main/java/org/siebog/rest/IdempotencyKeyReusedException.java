package org.siebog.rest;

import org.siebog.api.SiebogException;

/**
 * The caller posted another message under a key that already names one of theirs: 422, and
 * nothing was sent. A key names one message for the dedupe horizon, whatever became of its post.
 */
class IdempotencyKeyReusedException extends SiebogException {

    IdempotencyKeyReusedException(IdempotencyKey key, long horizonMillis) {
        super("the " + IdempotencyKey.HEADER + " '" + key.key() + "' already names a different message of yours, posted within the last "
                + duration(horizonMillis) + "; this one was not sent. Post it under a new key: a key names one message (the earlier one "
                + "may be posted again under this key, exactly as it was)");
    }

    private static String duration(long millis) {
        return millis >= 120_000 ? millis / 60_000 + " minutes" : millis / 1000 + " s";
    }

    @Override
    public int status() {
        return 422;
    }
}
