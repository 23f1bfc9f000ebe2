package org.siebog.df;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.ServiceDescription;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;

class ServiceJsonTest {

    @Test
    void anEntryReadsBackAsItWasWritten() {
        ServiceEntry entry = new ServiceEntry(AID.parse("seller@siebog"),
                ServiceDescription.of("book-selling", "books").withProtocols("fipa-contract-net").withLanguages("json")
                        .withOntologies("books").withProperty("currency", "EUR"),
                Instant.parse("2026-11-26T12:00:00Z"));
        JsonObject json = ServiceJson.entry(entry);
        assertEquals("{\"agent\":\"seller@siebog\",\"service\":{\"type\":\"book-selling\",\"name\":\"books\",\"protocols\":[\"fipa-contract-net\"],"
                + "\"ontologies\":[\"books\"],\"languages\":[\"json\"],\"properties\":{\"currency\":\"EUR\"}},\"expires\":\"2026-11-26T12:00:00Z\"}",
                json.toString());
        assertEquals(entry, ServiceJson.readEntry(json));
        assertEquals(entry, ServiceJson.readCursor(json));
        assertEquals(new ServiceEntry(entry.agent(), entry.service(), null),
                ServiceJson.readEntry(Json.createObjectBuilder(json).remove("expires").build()), "no expires: no lease");
    }

    @Test
    void aTemplateNeedsNoFieldAndMatchesWhatItNames() {
        ServiceTemplate template = ServiceJson.readTemplate(read("{\"protocols\": [\"fipa-request\"], \"properties\": {\"currency\": \"EUR\"}}"));
        assertEquals(null, template.type());
        assertEquals(Set.of("fipa-request"), template.protocols());
        assertTrue(template.matches(ServiceDescription.of("t", "n").withProtocols("fipa-request", "other").withProperty("currency", "EUR")));
        assertEquals(false, template.matches(ServiceDescription.of("t", "n").withProtocols("fipa-request").withProperty("currency", "USD")));
        assertEquals(ServiceTemplate.any(), ServiceJson.readTemplate(read("{}")));
    }

    @Test
    void whatIsMissingMistypedUnknownOrOverItsLimitIsA400NamingIt() {
        List.of(
                List.of("{\"type\": \"t\"}", "a service needs a \"type\" and a \"name\""),
                List.of("{\"type\": 3, \"name\": \"n\"}", "\"type\" must be a string"),
                List.of("{\"type\": \"t\", \"name\": \"n\", \"color\": \"red\"}", "a service has no field \"color\""),
                List.of("{\"type\": \"t\", \"name\": \"n\", \"protocols\": \"p\"}", "\"protocols\" must be an array of strings"),
                List.of("{\"type\": \"t\", \"name\": \"n\", \"protocols\": [1]}", "\"protocols\" must be an array of strings"),
                List.of("{\"type\": \"t\", \"name\": \"n\", \"properties\": {\"k\": 1}}", "property \"k\" must be a string"),
                List.of("{\"type\": \"\", \"name\": \"n\"}", "type must be 1 to 1024 characters; it has 0"),
                List.of("{\"type\": \"" + "x".repeat(1025) + "\", \"name\": \"n\"}", "type must be 1 to 1024 characters; it has 1025"),
                List.of("{\"type\": \"t\", \"name\": \"n\", \"languages\": [" + "\"l\",".repeat(32) + "\"last\"]}",
                        "\"languages\" may hold at most 32 entries; it holds 33"))
                .forEach(c -> {
                    InvalidAgentRequestException refused = assertThrows(InvalidAgentRequestException.class, () -> ServiceJson.readService(read(c.get(0))));
                    assertTrue(refused.getMessage().contains(c.get(1)), refused.getMessage());
                    assertEquals(400, refused.status());
                });
    }

    private static JsonObject read(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }
}
