package org.siebog.platform;

import org.siebog.agent.AID;

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
 *                          default 1,048,576 characters); REST bodies may be this plus 64 KiB of envelope
 */
public record PlatformConfig(String platformName, int mailboxCapacity, int mailboxThroughput, int maxContentChars) {

    public static final PlatformConfig SYSTEM = new PlatformConfig(
            System.getProperty("siebog.platform", AID.DEFAULT_PLATFORM),
            Integer.getInteger("siebog.mailbox.capacity", 10_000),
            Integer.getInteger("siebog.mailbox.throughput", 32),
            Integer.getInteger("siebog.message.max-content-chars", 1 << 20));

    /** Envelope allowance on top of the content when a message arrives as a JSON body. */
    public static final int JSON_ENVELOPE_BYTES = 64 * 1024;

    public long maxJsonBodyBytes() {
        // A content character can take up to 6 bytes as a JSON escape (\\uXXXX).
        return (long) maxContentChars * 6 + JSON_ENVELOPE_BYTES;
    }
}
