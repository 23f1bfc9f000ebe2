package org.siebog.message;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;
import org.siebog.api.Ballot;

/** The Java API's ballot count against the cases shared with the JavaScript library (test/fixtures/ballots.json). */
class BallotFixturesTest {

    private static final Path FIXTURES = Path.of(System.getProperty("contract.fixtures", "../siebog-client-js/test/fixtures"));

    @Test
    void everyCaseCountsAsTheFixtureSays() throws IOException {
        JsonObject fixture;
        try (Reader in = Files.newBufferedReader(FIXTURES.resolve("ballots.json"))) {
            fixture = Json.createReader(in).readObject();
        }
        for (JsonObject c : fixture.getJsonArray("cases").getValuesAs(JsonObject.class)) {
            Ballot.Result result = Ballot.count(c.getJsonArray("votes").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList(),
                    c.getInt("voters"), Ballot.Rule.valueOf(c.getString("rule")));
            Map<String, Integer> tally = new TreeMap<>();
            c.getJsonObject("tally").forEach((choice, n) -> tally.put(choice, ((jakarta.json.JsonNumber) n).intValue()));
            assertEquals(c.get("winner") == JsonValue.NULL ? null : c.getString("winner"), result.winner(), c::toString);
            assertEquals(tally, result.tally(), c::toString);
            assertEquals(c.getJsonArray("votes").size(), result.votes());
            assertEquals(c.getInt("voters"), result.voters());
        }
    }
}
