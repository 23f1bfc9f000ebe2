package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

/**
 * A device played by a test over the real WebSocket (docs/device-protocol.md): it sends frames
 * and reads what the server sends, in order. Heartbeats go out on their own once joined.
 */
public final class TestDevice implements AutoCloseable {

    /** The heartbeat interval the test server runs with ({@code -Dsiebog.device.heartbeat-ms} in arquillian.xml). */
    static final long HEARTBEAT_MS = 1_000;

    private final BlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();
    private final AtomicInteger heartbeatsHeard = new AtomicInteger();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
    private final WebSocket socket;
    private String id;
    /** While set, the device takes no more frames from the socket (a device that does not read). */
    private volatile boolean paused;
    private volatile boolean owed;
    /** While set, every {@code start} is answered {@code started} as it arrives (a device that runs what it gets). */
    private volatile boolean answeringStarts;

    private TestDevice(URI uri) {
        socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(uri, new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    JsonObject frame = Json.createReader(new StringReader(partial.toString())).readObject();
                    if ("heartbeat".equals(frame.getString("op", null))) {
                        heartbeatsHeard.incrementAndGet();
                    }
                    if (answeringStarts && "start".equals(frame.getString("op", null))) {
                        // Not on the listener's thread: a send waits for the socket.
                        heartbeats.execute(() -> send(Json.createObjectBuilder().add("op", "started")
                                .add("aid", frame.getString("aid")).build()));
                    }
                    frames.add(frame);
                    partial.setLength(0);
                }
                if (paused) {
                    owed = true;
                } else {
                    ws.request(1);
                }
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }

            @Override
            public void onError(WebSocket ws, Throwable error) {
                closed.completeExceptionally(error);
            }
        }).join();
    }

    /** Opens a socket without joining. */
    static TestDevice open(SiebogApi siebog) {
        return open(siebog.uri(""));
    }

    /** Opens a socket to the node whose REST API is at {@code api} ({@code http://host:port/siebog/api/}). */
    public static TestDevice open(URI api) {
        return new TestDevice(URI.create(api.toString().replaceFirst("^http", "ws").replaceFirst("/api/?$", "/ws/device")));
    }

    static TestDevice join(SiebogApi siebog, double computeUnits) {
        return join(siebog.uri(""), computeUnits);
    }

    /**
     * Opens, joins claiming {@code computeUnits}, and keeps heartbeating. A node that trusts claims
     * ({@code siebog.device.trust-claimed-compute-units}) takes them; any other measures the device
     * with a challenge, which this device answers (its units are then what the node measured).
     */
    public static TestDevice join(URI api, double computeUnits) {
        TestDevice device = open(api);
        device.send(Json.createObjectBuilder().add("op", "join").add("computeUnits", computeUnits).add("label", "test").build());
        JsonObject welcome = device.welcome();
        device.id = welcome.getString("device");
        device.heartbeats.scheduleAtFixedRate(() -> device.send("{\"op\":\"heartbeat\"}"), HEARTBEAT_MS / 2, HEARTBEAT_MS / 2,
                TimeUnit.MILLISECONDS);
        return device;
    }

    public String id() {
        return id;
    }

    /** After a {@code join}: answers the node's {@code challenge} if it sends one, and returns the {@code welcome}. */
    public JsonObject welcome() {
        JsonObject answer = next();
        if (answer.getString("op").equals("challenge")) {
            send(solution(answer));
            answer = next();
        }
        assertEquals("welcome", answer.getString("op"), answer::toString);
        return answer;
    }

    /**
     * The {@code solution} to a compute-unit {@code challenge} (docs/device-protocol.md, "Compute
     * units"): per puzzle, the first nonce from 0 whose SHA-256 over seed, puzzle and nonce (32-bit
     * big-endian each) starts with {@code zeroBits} zero bits.
     */
    public static JsonObject solution(JsonObject challenge) {
        byte[] seed = HexFormat.of().parseHex(challenge.getString("seed"));
        int zeroBits = challenge.getInt("zeroBits");
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        JsonArrayBuilder nonces = Json.createArrayBuilder();
        for (int puzzle = 0; puzzle < challenge.getInt("puzzles"); puzzle++) {
            long nonce = 0;
            while (leadingZeroBits(sha256, seed, puzzle, nonce) < zeroBits) {
                nonce++;
            }
            nonces.add(nonce);
        }
        return Json.createObjectBuilder().add("op", "solution").add("nonces", nonces).build();
    }

    private static int leadingZeroBits(MessageDigest sha256, byte[] seed, int puzzle, long nonce) {
        sha256.update(seed);
        byte[] hash = sha256.digest(ByteBuffer.allocate(8).putInt(puzzle).putInt((int) nonce).array());
        int bits = 0;
        for (byte b : hash) {
            if (b != 0) {
                return bits + Integer.numberOfLeadingZeros(b & 0xFF) - 24;
            }
            bits += 8;
        }
        return bits;
    }

    public synchronized void send(String frame) {
        socket.sendText(frame, true).join();
    }

    public void send(JsonObject frame) {
        send(frame.toString());
    }

    public synchronized void sendBinary(byte[] bytes) {
        socket.sendBinary(ByteBuffer.wrap(bytes), true).join();
    }

    /** The next frame other than a heartbeat; fails after 30 s. */
    public JsonObject next() {
        return next(null);
    }

    /** The next frame with {@code op} (any op if null), skipping heartbeats; fails after 30 s. */
    public JsonObject next(String op) {
        return nextWithin(op, Duration.ofSeconds(30)).orElseGet(() -> fail("no '" + op + "' frame within 30 s"));
    }

    /** The next frame with {@code op} (any op if null), skipping heartbeats, if one comes {@code within}. */
    public Optional<JsonObject> nextWithin(String op, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        try {
            while (true) {
                JsonObject frame = frames.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (frame == null) {
                    return Optional.empty();
                }
                if (frame.getString("op").equals("heartbeat") && !"heartbeat".equals(op)) {
                    continue;
                }
                if (op != null) {
                    assertEquals(op, frame.getString("op"), () -> "expected '" + op + "', got " + frame);
                }
                return Optional.of(frame);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The ops of the frames received and not taken yet, heartbeats left out ("" when none). */
    public String pendingOps() {
        return frames.stream().map(f -> f.getString("op")).filter(op -> !op.equals("heartbeat")).collect(Collectors.joining(","));
    }

    /** Answers a {@code start} for a client agent as a device that ran its onStart. */
    public JsonObject startAgent() {
        return startAgentWithin(Duration.ofSeconds(30)).orElseGet(() -> fail("no 'start' frame within 30 s"));
    }

    /** Answers a {@code start} that comes {@code within}, as {@link #startAgent()} does. */
    public Optional<JsonObject> startAgentWithin(Duration within) {
        Optional<JsonObject> start = nextWithin("start", within);
        start.ifPresent(frame -> send(Json.createObjectBuilder().add("op", "started").add("aid", frame.getString("aid")).build()));
        return start;
    }

    /** From now on answers every {@code start} at once, as an honest device does (the frames are still kept for {@link #next}). */
    public TestDevice answeringStarts() {
        answeringStarts = true;
        return this;
    }

    /**
     * Starts a client agent of {@code agentClass} on this device through REST ({@code POST /api/agents}
     * with this device), answering its {@code start} frame; returns that frame.
     */
    public JsonObject startClientAgent(SiebogApi siebog, String agentClass, String name) {
        CompletableFuture<SiebogApi.Reply> started = CompletableFuture.supplyAsync(() -> siebog.post("agents",
                Json.createObjectBuilder().add("agentClass", agentClass).add("name", name).add("device", id).build().toString()));
        JsonObject start = startAgent();
        assertEquals(SiebogApi.aid(name), start.getString("aid"));
        assertEquals("/siebog/agents/" + agentClass + ".js", start.getString("module"));
        SiebogApi.Reply reply = started.join();
        assertEquals(201, reply.status(), reply::toString);
        assertEquals(id, reply.object().getString("location"));
        return start;
    }

    /** The close code the server closed with; fails after 30 s. */
    public int closeCode() {
        try {
            return closed.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the server did not close the socket: " + e, e);
        }
    }

    /** How many heartbeats the server has answered so far. */
    public int heartbeatsHeard() {
        return heartbeatsHeard.get();
    }

    public boolean isOpen() {
        return !closed.isDone();
    }

    /** Stops taking frames from the socket, so what the server sends piles up in TCP's buffers and then the server's. */
    public void stopReading() {
        paused = true;
    }

    public void resumeReading() {
        paused = false;
        if (owed) {
            owed = false;
            socket.request(1);
        }
    }

    public void stopHeartbeats() {
        heartbeats.shutdownNow();
    }

    @Override
    public void close() {
        heartbeats.shutdownNow();
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
        }
    }

    /** Closes the TCP connection without a close frame, like a browser tab that crashed. */
    public void vanish() {
        heartbeats.shutdownNow();
        socket.abort();
    }
}
