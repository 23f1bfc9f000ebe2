package org.siebog.perf.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;

import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;

/**
 * The simulated device's frames against the device protocol's examples
 * (siebog-client-js/test/fixtures/device-frames.json), which the server and the library test against too.
 */
class FramesTest {

    private static final Path FIXTURES = Path.of(System.getProperty("contract.fixtures", "../siebog-client-js/test/fixtures"));
    private static final JsonObject FRAMES = read();

    private static JsonObject read() {
        try (var reader = RecordJson.JSON.createReader(new StringReader(
                Files.readString(FIXTURES.resolve("device-frames.json"), StandardCharsets.UTF_8)))) {
            return reader.readObject();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The example of {@code op} (device to node) named {@code name}. */
    private static JsonObject example(String direction, String op, String name) {
        return FRAMES.getJsonObject(direction).getJsonObject(op).getJsonArray("valid").stream().map(JsonObject.class::cast)
                .filter(c -> c.getString("name").equals(name)).findFirst().orElseThrow(() -> new AssertionError(op + ": " + name))
                .getJsonObject("frame");
    }

    private static JsonObject fromDevice(String op, String name) {
        return example("deviceToNode", op, name);
    }

    @Test
    void theFramesADeviceSendsOfItselfAreTheExamples() {
        JsonObject join = fromDevice("join", "a claim and a label (the host page's ?cu= and ?label=)");
        assertEquals(join.toString(), Frames.join(join.getInt("computeUnits"), join.getString("label")));
        assertEquals(fromDevice("heartbeat", "a heartbeat").toString(), Frames.HEARTBEAT);
        JsonObject started = fromDevice("started", "onStart ran");
        assertEquals(started.toString(), Frames.started(started.getString("aid")));
        JsonObject stopped = fromDevice("stopped", "onStop ran, the Worker ended");
        assertEquals(stopped.toString(), Frames.stopped(stopped.getString("aid")));
        JsonObject ack = fromDevice("ack", "every delivery up to 42 handled");
        assertEquals(ack.toString(), Frames.ack(ack.getString("aid"), ack.getJsonNumber("seq").longValue()));
    }

    @Test
    void theRequestsOfTheBindingAreTheExamples() {
        JsonObject spawn = fromDevice("spawn", "on this device");
        assertEquals(spawn.toString(), Frames.spawn(spawn.getString("agentClass"), spawn.getString("name"), spawn.getString("device"),
                spawn.getJsonNumber("ref").longValue()));
        JsonObject save = fromDevice("saveState", "an object");
        assertEquals(save.toString(), Frames.saveState(save.getString("aid"), save.getJsonNumber("version").longValue(),
                f -> f.write("state", save.get("state")), save.getJsonNumber("ref").longValue()));
        JsonObject load = fromDevice("loadState", "an agent of this device");
        assertEquals(load.toString(), Frames.loadState(load.getString("aid"), load.getJsonNumber("ref").longValue()));
        JsonObject stop = fromDevice("stopAgent", "an agent of this device");
        assertEquals(stop.toString(), Frames.stopAgent(stop.getString("aid"), stop.getJsonNumber("ref").longValue()));
    }

    @Test
    void aRecordIsSavedAsAnObjectOfStrings() {
        Map<String, ByteIterator> values = Map.of("field0", new StringByteIterator("v\"0"));
        assertEquals("{\"op\":\"saveState\",\"aid\":\"user1@siebog\",\"version\":2,\"state\":{\"field0\":\"v\\\"0\"},\"ref\":7}",
                Frames.saveState("user1@siebog", 2, f -> RecordJson.write(f, "state", values), 7));
    }

    @Test
    void everyDeliveryIsAcknowledgedByItsAgentAndSeq() {
        FRAMES.getJsonObject("nodeToDevice").getJsonObject("deliver").getJsonArray("valid").forEach(c -> {
            JsonObject deliver = c.asJsonObject().getJsonObject("frame");
            assertEquals("{\"op\":\"ack\",\"aid\":\"" + deliver.getString("aid") + "\",\"seq\":" + deliver.getInt("seq") + "}",
                    Frames.ackOf(deliver));
        });
    }

    @Test
    void theFieldsTheDeviceReadsAreInTheNodesExamples() {
        JsonObject welcome = example("nodeToDevice", "welcome", "measured");
        welcome.getString("device");
        welcome.getString("platform");
        welcome.getJsonNumber("heartbeatMs").longValue();
        JsonObject start = example("nodeToDevice", "start", "from a saved state");
        assertEquals(3, start.getJsonNumber("version").longValue());
        start.getString("aid");
        assertEquals("echo-2@siebog", example("nodeToDevice", "spawned", "started on a device").getString("aid"));
        JsonObject refused = example("nodeToDevice", "error", "a stale save: the version that won");
        assertEquals(409, refused.getInt("status"));
        assertEquals(5, refused.getJsonNumber("version").longValue());
    }
}
