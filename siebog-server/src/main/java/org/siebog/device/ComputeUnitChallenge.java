package org.siebog.device;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;

/**
 * The workload a node gives a joining device to measure its compute units (docs/device-protocol.md,
 * "Compute units"): {@link #PUZZLES} puzzles, each asking for a nonce whose SHA-256 hash, with the
 * challenge's seed and the puzzle's index, starts with {@link #ZERO_BITS} zero bits. Finding one
 * takes 2^12 hashes on average, so the whole challenge 2^18 (about 0.2 to 1 s in a browser's
 * JavaScript); checking an answer takes one hash per puzzle. The seed is fresh for every join, so no
 * answer can be prepared, and the node times the challenge itself, so a device's speed is what it
 * shows, not what it says. Many puzzles rather than one harder one keep the luck of the draw small
 * (the work one puzzle takes varies as much as its mean; 64 of them, an eighth of it).
 *
 * <p>A puzzle's hash is SHA-256 of 24 bytes: the 16 seed bytes, the puzzle's index and the nonce,
 * each a 32-bit big-endian unsigned integer.
 *
 * @param seed       16 random bytes
 * @param issuedAt   when the node sent it ({@link System#nanoTime()})
 */
record ComputeUnitChallenge(byte[] seed, long issuedAt) {

    static final int PUZZLES = 64;
    static final int ZERO_BITS = 12;
    static final int SEED_BYTES = 16;
    /** The hashes a device computes for the whole challenge, on average. */
    static final double EXPECTED_HASHES = PUZZLES * (double) (1L << ZERO_BITS);
    /** One compute unit is 1,000 hashes a second. */
    static final double HASHES_PER_UNIT = 1_000;
    private static final long MAX_NONCE = 0xFFFF_FFFFL;

    private static final SecureRandom SEEDS = new SecureRandom();

    static ComputeUnitChallenge issue() {
        byte[] seed = new byte[SEED_BYTES];
        SEEDS.nextBytes(seed);
        return new ComputeUnitChallenge(seed, System.nanoTime());
    }

    String seedHex() {
        return HexFormat.of().formatHex(seed);
    }

    /**
     * The nonces of a {@code solution} frame's array, in order; -1 for an entry that is not an
     * integer from 0 to 2^32 - 1 (so {@link #refusal} names it). Null for no array, or one of another
     * length (looked at no further: a frame may hold thousands of numbers).
     */
    static long[] nonces(JsonArray array) {
        if (array == null || array.size() != PUZZLES) {
            return null;
        }
        long[] nonces = new long[PUZZLES];
        for (int i = 0; i < PUZZLES; i++) {
            nonces[i] = array.get(i) instanceof JsonNumber n && n.isIntegral() && n.bigDecimalValue().signum() >= 0
                    && n.bigDecimalValue().compareTo(BigDecimal.valueOf(MAX_NONCE)) <= 0 ? n.longValue() : -1;
        }
        return nonces;
    }

    /**
     * Why {@code nonces} do not answer the challenge (for a person, quoting little), or null when
     * they do: one per puzzle, in order, each giving a hash that starts with {@link #ZERO_BITS} zero bits.
     */
    String refusal(long[] nonces) {
        if (nonces == null || nonces.length != PUZZLES) {
            return "'nonces' must be an array of " + PUZZLES + " integers, one per puzzle";
        }
        MessageDigest sha256 = sha256();
        for (int i = 0; i < PUZZLES; i++) {
            if (nonces[i] < 0 || nonces[i] > MAX_NONCE) {
                return "nonce " + i + " must be an integer from 0 to " + MAX_NONCE;
            }
            if (leadingZeroBits(hash(sha256, seed, i, nonces[i])) < ZERO_BITS) {
                return "nonce " + i + " (" + nonces[i] + ") does not give a hash starting with " + ZERO_BITS + " zero bits";
            }
        }
        return null;
    }

    /**
     * The compute units of a device that answered at {@code answeredAt} ({@link System#nanoTime()}):
     * the hashes the challenge takes on average per second of the node's own clock, from sending the
     * challenge to reading the answer (the network's round trip included, which only lowers them),
     * a thousand to the unit, at most {@code max}, at least 0.01, to 2 decimals.
     */
    double computeUnits(long answeredAt, double max) {
        double seconds = Math.max(answeredAt - issuedAt, 1) / 1e9;
        double units = Math.round(EXPECTED_HASHES / seconds / HASHES_PER_UNIT * 100) / 100.0;
        return Math.min(max, Math.max(0.01, units));
    }

    static byte[] hash(MessageDigest sha256, byte[] seed, int puzzle, long nonce) {
        sha256.reset();
        sha256.update(seed);
        sha256.update(ByteBuffer.allocate(8).putInt(puzzle).putInt((int) nonce).array());
        return sha256.digest();
    }

    static int leadingZeroBits(byte[] hash) {
        int bits = 0;
        for (byte b : hash) {
            if (b != 0) {
                return bits + Integer.numberOfLeadingZeros(b & 0xFF) - 24;
            }
            bits += 8;
        }
        return bits;
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
