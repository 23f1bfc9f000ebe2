package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;

/** The compute-unit challenge against the fixture the JavaScript library's solver is tested with. */
class ComputeUnitChallengeTest {

    private static final Path FIXTURES = Path.of(System.getProperty("contract.fixtures", "../siebog-client-js/test/fixtures"));

    private static JsonObject fixture() throws IOException {
        try (var reader = Json.createReader(new StringReader(Files.readString(FIXTURES.resolve("compute-units-challenge.json"))))) {
            return reader.readObject();
        }
    }

    private static ComputeUnitChallenge challengeOf(JsonObject fixture, long issuedAt) {
        JsonObject challenge = fixture.getJsonObject("challenge");
        assertEquals(ComputeUnitChallenge.PUZZLES, challenge.getInt("puzzles"));
        assertEquals(ComputeUnitChallenge.ZERO_BITS, challenge.getInt("zeroBits"));
        return new ComputeUnitChallenge(HexFormat.of().parseHex(challenge.getString("seed")), issuedAt);
    }

    @Test
    void theHashIsSha256OfTheSeedThePuzzleAndTheNonce() throws IOException {
        JsonObject fixture = fixture();
        byte[] seed = HexFormat.of().parseHex(fixture.getJsonObject("challenge").getString("seed"));
        for (JsonValue v : fixture.getJsonArray("hashes")) {
            JsonObject h = v.asJsonObject();
            byte[] hash = ComputeUnitChallenge.hash(ComputeUnitChallenge.sha256(), seed, h.getInt("puzzle"), h.getJsonNumber("nonce").longValue());
            assertEquals(h.getString("sha256"), HexFormat.of().formatHex(hash));
        }
    }

    @Test
    void theFixturesAnswerIsRight() throws IOException {
        JsonObject fixture = fixture();
        ComputeUnitChallenge challenge = challengeOf(fixture, 0);
        assertNull(challenge.refusal(ComputeUnitChallenge.nonces(fixture.getJsonObject("solution").getJsonArray("nonces"))));
    }

    @Test
    void everyWrongAnswerIsRefusedNamingWhatIsWrong() throws IOException {
        JsonObject fixture = fixture();
        ComputeUnitChallenge challenge = challengeOf(fixture, 0);
        for (JsonValue v : fixture.getJsonArray("wrong")) {
            JsonObject wrong = v.asJsonObject();
            String refusal = challenge.refusal(ComputeUnitChallenge.nonces(wrong.getJsonArray("nonces")));
            assertNotNull(refusal, wrong.getString("names"));
            assertTrue(refusal.contains(wrong.getString("names")), refusal + " should name " + wrong.getString("names"));
        }
        assertNotNull(challenge.refusal(null), "no array at all");
    }

    @Test
    void anAnswerToAnotherSeedIsWrong() throws IOException {
        JsonObject fixture = fixture();
        ComputeUnitChallenge fresh = ComputeUnitChallenge.issue();
        assertFalse(fresh.seedHex().equals(fixture.getJsonObject("challenge").getString("seed")));
        assertNotNull(fresh.refusal(ComputeUnitChallenge.nonces(fixture.getJsonObject("solution").getJsonArray("nonces"))),
                "a seed of its own for every join: an old answer does not fit");
        assertEquals(32, fresh.seedHex().length());
        assertFalse(fresh.seedHex().equals(ComputeUnitChallenge.issue().seedHex()));
    }

    @Test
    void unitsAreTheChallengesHashesPerSecondOfTheNodesClockAThousandToTheUnitWithinTheCap() {
        ComputeUnitChallenge challenge = new ComputeUnitChallenge(new byte[16], 1_000_000_000L);
        // 262,144 hashes in 0.5 s: 524,288 a second, 524.29 units.
        assertEquals(524.29, challenge.computeUnits(1_500_000_000L, 10_000));
        assertEquals(262.14, challenge.computeUnits(2_000_000_000L, 10_000), "twice the time, half the units");
        assertEquals(10_000, challenge.computeUnits(1_000_000_001L, 10_000), "an answer faster than any device: the cap");
        assertEquals(100, challenge.computeUnits(1_100_000_000L, 100), "the cap is the node's property");
        assertEquals(0.01, challenge.computeUnits(1_000_000_000L + 360_000_000_000_000L, 10_000), "never 0: the slowest still gets some");
    }

    @Test
    void leadingZeroBitsCountsBitsNotBytes() {
        assertEquals(12, ComputeUnitChallenge.leadingZeroBits(new byte[] {0, 0x0F, 0}));
        assertEquals(11, ComputeUnitChallenge.leadingZeroBits(new byte[] {0, 0x10}));
        assertEquals(0, ComputeUnitChallenge.leadingZeroBits(new byte[] {(byte) 0x80}));
        assertEquals(16, ComputeUnitChallenge.leadingZeroBits(new byte[] {0, 0}));
    }
}
