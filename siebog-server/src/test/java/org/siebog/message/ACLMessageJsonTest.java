package org.siebog.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.siebog.api.ACLMessage;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.Performative;

/** The ACL JSON form against the fixtures shared with the JavaScript library. */
class ACLMessageJsonTest {

    private static final Path FIXTURES = Path.of(System.getProperty("contract.fixtures", "../siebog-client-js/test/fixtures"));

    static Stream<Path> validMessages() throws IOException {
        return Files.list(FIXTURES.resolve("acl")).filter(p -> p.toString().endsWith(".json")).sorted();
    }

    static Stream<JsonObject> invalidMessages() throws IOException {
        try (var reader = Json.createReader(new StringReader(Files.readString(FIXTURES.resolve("acl-invalid.json"))))) {
            return reader.readArray().stream().map(v -> v.asJsonObject()).toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("validMessages")
    void readingAndWritingAFixtureGivesTheSameBytes(Path fixture) throws IOException {
        String canonical = Files.readString(fixture, StandardCharsets.UTF_8).stripTrailing();
        assertEquals(canonical, ACLMessageJson.write(ACLMessageJson.read(canonical)));
    }

    @ParameterizedTest
    @MethodSource("invalidMessages")
    void invalidMessagesAreRefusedNamingTheField(JsonObject testCase) {
        MalformedMessageException error = assertThrows(MalformedMessageException.class,
                () -> ACLMessageJson.read(testCase.getString("json")), testCase.getString("case"));
        if (testCase.get("field") instanceof JsonString field) {
            assertTrue(error.getMessage().contains("'" + field.getString() + "'"),
                    testCase.getString("case") + ": " + error.getMessage());
        }
    }

    @Test
    void everyFieldIsRead() throws IOException {
        ACLMessage msg = ACLMessageJson.read(Files.readString(FIXTURES.resolve("acl/every-field.json")));
        assertEquals(Performative.CALL_FOR_PROPOSAL, msg.performative());
        assertEquals("manager@siebog", msg.sender().toString());
        assertEquals(List.of("bidder-1@siebog", "bidder-2@siebog"), msg.receivers().stream().map(Object::toString).toList());
        assertEquals("auction@siebog", msg.replyTo().toString());
        assertEquals("(sell (book :title \"Siebog\") :price 20)", msg.content());
        assertEquals("fipa-sl", msg.language());
        assertEquals("UTF-8", msg.encoding());
        assertEquals("book-trading", msg.ontology());
        assertEquals("fipa-contract-net", msg.protocol());
        assertEquals("conv-42", msg.conversationId());
        assertEquals("cfp-1", msg.replyWith());
        assertEquals("req-7", msg.inReplyTo());
        assertEquals("2026-11-21T17:30:00Z", msg.replyBy().toString());
        assertEquals("strict", msg.userProperty("deadline-policy"));
        assertEquals("high", msg.userProperty("priority"));
    }

    @Test
    void thePerformativesAreTheContractsTwentyTwo() throws IOException {
        JsonArray names = Json.createReader(Files.newBufferedReader(FIXTURES.resolve("performatives.json"))).readArray();
        assertEquals(22, names.size());
        assertEquals(names.getValuesAs(JsonString::getString),
                Arrays.stream(Performative.values()).map(Enum::name).toList());
    }

    @Test
    void absentFieldsAreOmittedAndNullReadsAsAbsent() {
        ACLMessage msg = ACLMessageJson.read("{\"performative\":\"AGREE\",\"receivers\":[\"b@siebog\"],\"content\":null}");
        assertEquals("{\"performative\":\"AGREE\",\"receivers\":[\"b@siebog\"]}", ACLMessageJson.write(msg));
        assertFalse(ACLMessageJson.write(msg).contains("userProperties"));
    }
}
