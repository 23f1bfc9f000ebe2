package org.siebog.platform;

import org.siebog.api.AID;

/**
 * Platform settings, read once from system properties so an admin sets them per node
 * ({@code -Dsiebog.mailbox.capacity=...} or {@code /system-property=...} in the CLI).
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
 * @param maxAwaitReplyMillis the longest a REST caller may wait for an answer ({@code siebog.message.max-await-reply-ms},
 *                          default 5 minutes)
 */
public record PlatformConfig(String platformName, int mailboxCapacity, int mailboxThroughput, int maxContentChars,
        int maxEnvelopeChars, int maxReceivers, long maxDelayMillis, long maxDelayedBytes, long maxAwaitReplyMillis) {

    public static final PlatformConfig SYSTEM = new PlatformConfig(
            System.getProperty("siebog.platform", AID.DEFAULT_PLATFORM),
            Integer.getInteger("siebog.mailbox.capacity", 10_000),
            Integer.getInteger("siebog.mailbox.throughput", 32),
            Integer.getInteger("siebog.message.max-content-chars", 1 << 20),
            Integer.getInteger("siebog.message.max-envelope-chars", 128 * 1024),
            Integer.getInteger("siebog.message.max-receivers", 1_000),
            Long.getLong("siebog.message.max-delay-ms", 24 * 60 * 60 * 1000L),
            Long.getLong("siebog.message.max-delayed-bytes", 64L << 20),
            Long.getLong("siebog.message.max-await-reply-ms", 300_000));

    /** What a JSON body holds besides the characters of its fields: names, quotes, commas, braces. */
    private static final int JSON_SYNTAX_BYTES = 4 * 1024;

    /** The largest JSON body that can hold a message within the limits: a REST body beyond is refused unread. */
    public long maxJsonBodyBytes() {
        // A character can take up to 6 bytes as a JSON escape (\\uXXXX).
        return ((long) maxContentChars + maxEnvelopeChars) * 6 + JSON_SYNTAX_BYTES;
    }
}
