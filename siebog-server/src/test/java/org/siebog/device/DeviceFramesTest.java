package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.websocket.CloseReason;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.siebog.api.SiebogException;
import org.siebog.device.DeviceFrames.BadFrame;
import org.siebog.device.DeviceFrames.Frame;

/**
 * Every frame of siebog-client-js/test/fixtures/device-frames.json, the device protocol's normative
 * examples shared with the library and the load generators: valid frames read into their records
 * and written back give the fixture's text; invalid ones get exactly the answer the fixture states,
 * through the socket's own path ({@link DeviceEndpoint} and {@link DeviceProtocol}).
 */
class DeviceFramesTest {

    private static final Path FIXTURES = Path.of(System.getProperty("contract.fixtures", "../siebog-client-js/test/fixtures"));
    private static final JsonObject FRAMES = read();

    private static JsonObject read() {
        try (var reader = Json.createReader(new StringReader(Files.readString(FIXTURES.resolve("device-frames.json"), StandardCharsets.UTF_8)))) {
            return reader.readObject();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<Arguments> cases(String direction, String kind) {
        return FRAMES.getJsonObject(direction).entrySet().stream().flatMap(op -> op.getValue().asJsonObject().getJsonArray(kind)
                .stream().map(c -> Arguments.of(op.getKey(), c.asJsonObject().getString("name"), c.asJsonObject())));
    }

    static Stream<Arguments> validFromDevice() {
        return cases("deviceToNode", "valid");
    }

    static Stream<Arguments> validToDevice() {
        return cases("nodeToDevice", "valid");
    }

    static Stream<Arguments> invalidFromDevice() {
        return Stream.concat(cases("deviceToNode", "invalid"), FRAMES.getJsonArray("malformed").stream()
                .map(c -> Arguments.of("(malformed)", c.asJsonObject().getString("name"), c.asJsonObject())));
    }

    static Stream<Arguments> invalidToDevice() {
        return cases("nodeToDevice", "invalid");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("validFromDevice")
    void aValidDeviceFrameReadsIntoItsRecordAndWritesBackTheSameText(String op, String name, JsonObject testCase) {
        String canonical = testCase.getJsonObject("frame").toString();

        Frame frame = DeviceFrames.fromDevice(DeviceFrame.parse(canonical));

        assertEquals(op, frame.op());
        assertEquals(canonical, frame.write());
        assertEquals(frame, DeviceFrames.fromDevice(DeviceFrame.parse(frame.write())));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("validToDevice")
    void aValidNodeFrameReadsIntoItsRecordAndWritesBackTheSameText(String op, String name, JsonObject testCase) {
        String canonical = testCase.getJsonObject("frame").toString();

        Frame frame = DeviceFrames.toDevice(DeviceFrame.parse(canonical));

        assertEquals(op, frame.op());
        assertEquals(canonical, frame.write());
        assertEquals(frame, DeviceFrames.toDevice(DeviceFrame.parse(frame.write())));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("invalidToDevice")
    void anInvalidNodeFrameIsRefusedByItsReader(String op, String name, JsonObject testCase) {
        BadFrame refusal = assertThrows(BadFrame.class, () -> DeviceFrames.toDevice(DeviceFrame.parse(text(testCase))));

        JsonObject answer = testCase.getJsonObject("answer");
        assertEquals(answer.getInt("status"), refusal.status());
        assertEquals(answer.getString("error"), refusal.getMessage());
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("invalidFromDevice")
    void anInvalidDeviceFrameGetsTheFixturesAnswerAndChangesNothing(String op, String name, JsonObject testCase) {
        Socket socket = new Socket();
        DeviceEndpoint endpoint = endpoint();
        endpoint.open(socket.session);
        DeviceConnection connection = socket.connection(endpoint);
        switch (testCase.getString("socket", "joined")) {
            case "joined" -> connection.joinedAs("d-fixture");
            case "challenged" -> connection.challenged(new DeviceConnection.Joining(ComputeUnitChallenge.issue(), ""));
            case "new" -> { }
            default -> throw new IllegalArgumentException(testCase.getString("socket"));
        }
        boolean joinedBefore = connection.joined();

        endpoint.text(socket.session, text(testCase), true);

        List<String> expectedFrames = testCase.containsKey("answer") ? List.of(testCase.getJsonObject("answer").toString()) : List.of();
        assertEquals(expectedFrames, socket.sent, "the frames answered");
        if (testCase.containsKey("close")) {
            JsonObject close = testCase.getJsonObject("close");
            assertNotNull(socket.closed, "closed");
            assertEquals(close.getInt("code"), socket.closed.getCloseCode().getCode());
            assertTrue(socket.closed.getReasonPhrase().startsWith(close.getString("reason")), socket.closed.getReasonPhrase());
        } else {
            assertEquals(null, socket.closed, "the socket stays open");
        }
        assertEquals(joinedBefore, connection.joined(), "nothing joined");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("invalidFromDevice")
    void anInvalidFrameOfAKnownOpIsRefusedByItsRecordWithTheAnswersText(String op, String name, JsonObject testCase) {
        String text = text(testCase);
        if (op.startsWith("(") || !testCase.containsKey("answer") || testCase.getJsonObject("answer").getInt("status") != 400
                || testCase.getString("socket", "joined").equals("challenged")
                || testCase.getJsonObject("answer").getString("error").startsWith("no challenge")) {
            return; // refused by the socket's state or the challenge, not by the record
        }
        DeviceFrame parsed = DeviceFrame.parse(text);
        // A BadFrame, or the message's own MalformedMessageException inside a 'send'.
        SiebogException refusal = assertThrows(SiebogException.class, () -> {
            DeviceFrames.optionalRef(parsed);
            DeviceFrames.fromDevice(parsed);
        });
        assertEquals(400, refusal.status());
        assertEquals(testCase.getJsonObject("answer").getString("error"), refusal.getMessage());
    }

    @Test
    void everyOpOfTheProtocolHasValidAndInvalidExamples() {
        Set<String> fromDevice = new TreeSet<>(FRAMES.getJsonObject("deviceToNode").keySet());
        Set<String> toDevice = new TreeSet<>(FRAMES.getJsonObject("nodeToDevice").keySet());
        assertEquals(new TreeSet<>(List.of("join", "solution", "heartbeat", "computeUnits", "send", "spawn", "stopAgent", "move", "started",
                "stopped", "ack", "agentError", "saveState", "loadState", "leave")), fromDevice);
        assertEquals(new TreeSet<>(List.of("challenge", "welcome", "heartbeat", "start", "stop", "deliver", "sent", "spawned",
                "agentStopped", "moved", "stateSaved", "state", "error")), toDevice);
        for (String direction : List.of("deviceToNode", "nodeToDevice")) {
            FRAMES.getJsonObject(direction).forEach((op, cases) -> {
                assertFalse(cases.asJsonObject().getJsonArray("valid").isEmpty(), direction + " " + op + " has valid examples");
                if (!op.equals("heartbeat") || direction.equals("deviceToNode")) {
                    assertFalse(cases.asJsonObject().getJsonArray("invalid").isEmpty(), direction + " " + op + " has invalid examples");
                }
            });
        }
        // Every record of DeviceFrames has its op in the fixtures.
        for (Class<?> type : DeviceFrames.FromDevice.class.getPermittedSubclasses()) {
            assertTrue(fromDevice.contains(op(type)), type.getSimpleName());
        }
        for (Class<?> type : DeviceFrames.ToDevice.class.getPermittedSubclasses()) {
            assertTrue(toDevice.contains(op(type)), type.getSimpleName());
        }
    }

    private static String op(Class<?> type) {
        try {
            return (String) type.getDeclaredField("OP").get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(type + " has no OP", e);
        }
    }

    /** The case's frame text: 'text' as it is, or 'frame' written compactly, padded to 'padToBytes' when asked. */
    private static String text(JsonObject testCase) {
        if (testCase.containsKey("text")) {
            return testCase.getString("text");
        }
        String frame = testCase.getJsonObject("frame").toString();
        if (testCase.containsKey("padToBytes")) {
            int pad = testCase.getInt("padToBytes") - DeviceConnection.utf8Length(frame);
            frame = frame.replace("\"pad\":\"\"", "\"pad\":\"" + "x".repeat(pad) + "\"");
            assertEquals(testCase.getInt("padToBytes"), DeviceConnection.utf8Length(frame));
        }
        return frame;
    }

    /** The socket path with nothing behind it: a frame that reaches the cluster would fail on the missing beans. */
    private static DeviceEndpoint endpoint() {
        DeviceEndpoint endpoint = new DeviceEndpoint();
        endpoint.sockets = new DeviceSockets();
        DeviceProtocol protocol = new DeviceProtocol();
        protocol.sockets = endpoint.sockets;
        protocol.proxies = new ClientAgentProxies();
        protocol.placement = new DevicePlacement();
        endpoint.protocol = protocol;
        return endpoint;
    }

    /** A socket that records what the node sends and how it closes. */
    private static final class Socket {
        final List<String> sent = new ArrayList<>();
        CloseReason closed;
        final Session session = (Session) Proxy.newProxyInstance(Session.class.getClassLoader(), new Class<?>[] {Session.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getAsyncRemote" -> Proxy.newProxyInstance(Session.class.getClassLoader(),
                            new Class<?>[] {RemoteEndpoint.Async.class}, (p, m, a) -> {
                                if (m.getName().equals("sendText") && a.length == 2) {
                                    sent.add((String) a[0]);
                                    ((SendHandler) a[1]).onResult(new SendResult());
                                    return null;
                                }
                                throw new UnsupportedOperationException(m.getName());
                            });
                    case "close" -> {
                        if (closed == null) {
                            closed = (CloseReason) args[0];
                        }
                        yield null;
                    }
                    case "isOpen" -> closed == null;
                    case "setMaxBinaryMessageBufferSize" -> null;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });

        DeviceConnection connection(DeviceEndpoint endpoint) {
            return endpoint.connection();
        }
    }

    @Test
    void aValueOfTheFixturesIsNeverJsonNullWhereTheWriterOmitsIt() {
        // The writers omit an absent optional field rather than writing null (docs/device-protocol.md:
        // "absent optional fields are null"): the canonical examples do the same.
        for (String direction : List.of("deviceToNode", "nodeToDevice")) {
            FRAMES.getJsonObject(direction).forEach((op, cases) -> cases.asJsonObject().getJsonArray("valid").forEach(c ->
                    c.asJsonObject().getJsonObject("frame").forEach((field, value) -> assertTrue(
                            value != JsonValue.NULL || field.equals("state"), direction + " " + op + "." + field + " is null"))));
        }
    }
}
