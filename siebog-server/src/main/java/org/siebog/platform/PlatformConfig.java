package org.siebog.platform;


/**
 * The settings on the message path, read once (their properties and defaults are in {@link Setting}).
 *
 * @param platformName      the {@code platform} part of every AID ({@code siebog.platform}, default {@code siebog})
 * @param mailboxCapacity   messages an agent's mailbox holds before posts to it are refused
 *                          ({@code siebog.mailbox.capacity}, default 10,000)
 * @param mailboxThroughput messages an agent handles in one go before its thread serves other agents
 *                          ({@code siebog.mailbox.throughput}, default 32)
 * @param maxContentChars   the longest message content accepted ({@code siebog.message.max-content-chars},
 *                          default 1,048,576 characters)
 * @param maxEnvelopeChars  the most characters a message may hold outside its content: every other field,
 *                          the AIDs and the user properties together ({@code siebog.message.max-envelope-chars},
 *                          default 131,072: a message to 1,000 receivers names about 50,000 characters of AIDs; at most 384 KiB of UTF-8)
 * @param maxReceivers      the most receivers one message may name, after duplicates are dropped
 *                          ({@code siebog.message.max-receivers}, default 1,000)
 * @param maxDelayMillis    the longest delay of a delayed post ({@code siebog.message.max-delay-ms}, default a day)
 * @param maxDelayedBytes   what a node holds of messages waiting for their delay, estimated in bytes
 *                          ({@code siebog.message.max-delayed-bytes}, default 64 MiB)
 * @param maxAwaitReplyMillis the longest a REST caller may wait for an answer, and an agent's ask
 *                          ({@code siebog.message.max-await-reply-ms}, default 5 minutes)
 * @param maxPendingAsks    the questions one agent may have awaiting their answers on a node
 *                          ({@code siebog.agent.max-pending-asks}, default 1,000)
 */
public record PlatformConfig(String platformName, int mailboxCapacity, int mailboxThroughput, int maxContentChars,
        int maxEnvelopeChars, int maxReceivers, long maxDelayMillis, long maxDelayedBytes, long maxAwaitReplyMillis,
        int maxPendingAsks) {

    public static final PlatformConfig SYSTEM = new PlatformConfig(
            Setting.PLATFORM.text().orElseThrow(),
            Setting.MAILBOX_CAPACITY.intValue(),
            Setting.MAILBOX_THROUGHPUT.intValue(),
            Setting.MAX_CONTENT_CHARS.intValue(),
            Setting.MAX_ENVELOPE_CHARS.intValue(),
            Setting.MAX_RECEIVERS.intValue(),
            Setting.MAX_DELAY_MS.longValue(),
            Setting.MAX_DELAYED_BYTES.longValue(),
            Setting.MAX_AWAIT_REPLY_MS.longValue(),
            Setting.MAX_PENDING_ASKS.intValue());

    /** What a JSON body holds besides the characters of its fields: names, quotes, commas, braces. */
    private static final int JSON_SYNTAX_BYTES = 4 * 1024;

    /** The largest JSON body that can hold a message within the limits: a REST body beyond is refused unread. */
    public long maxJsonBodyBytes() {
        // A character can take up to 6 bytes as a JSON escape (\\uXXXX).
        return ((long) maxContentChars + maxEnvelopeChars) * 6 + JSON_SYNTAX_BYTES;
    }
}
