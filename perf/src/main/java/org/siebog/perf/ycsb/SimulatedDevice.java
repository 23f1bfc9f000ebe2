package org.siebog.perf.ycsb;

import java.io.StringReader;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler.ClientHandshakeStateEvent;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

/**
 * One simulated browser device: one WebSocket to the node, speaking the device protocol
 * (docs/device-protocol.md) the way the JavaScript library does, minus the Workers. It joins, heartbeats
 * every {@code heartbeatMs} from {@code welcome} unless its own traffic made that needless, answers {@code start}/{@code stop}/{@code deliver} at
 * once, and matches answers to requests by {@code ref}. Everything inbound runs on the socket's Netty
 * event loop and never blocks; callers wait on the futures {@link #request} returns.
 */
final class SimulatedDevice extends SimpleChannelInboundHandler<WebSocketFrame> {

    /** What the pool learns from the device: placements, and errors nobody asked for. */
    interface Listener {
        void agentStarted(String aid, long version, SimulatedDevice device);

        void agentStopped(String aid);

        void deviceClosed(SimulatedDevice device, int closeCode, String reason);
    }

    private final int index;
    private final int computeUnits;
    private final Listener listener;
    private final Map<Long, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
    private final AtomicLong refs = new AtomicLong();
    private final CompletableFuture<SimulatedDevice> joined = new CompletableFuture<>();
    private volatile Channel channel;
    private volatile String id;
    private volatile String platform;
    private volatile int closeCode = -1;
    private volatile ScheduledFuture<?> heartbeats;
    /** When a frame last went out and last came in (ms): a device busy both ways skips its heartbeat, as the library does. */
    private volatile long lastSent;
    private volatile long lastReceived;

    SimulatedDevice(int index, int computeUnits, Listener listener) {
        this.index = index;
        this.computeUnits = computeUnits;
        this.listener = listener;
    }

    int index() {
        return index;
    }

    /** The id the server gave it in {@code welcome}, e.g. {@code d-3f9a1c2e}. */
    String id() {
        return id;
    }

    String platform() {
        return platform;
    }

    /** Completes with this device once {@code welcome} came; fails if the join is refused or the socket dies first. */
    CompletableFuture<SimulatedDevice> joined() {
        return joined;
    }

    boolean isOpen() {
        Channel ch = channel;
        return ch != null && ch.isActive() && closeCode < 0;
    }

    /**
     * Sends one request frame, {@code frame} of the {@code ref} the device gives it ({@link Frames}).
     * The future completes with the answer carrying that {@code ref}: the expected frame or an {@code error}.
     */
    CompletableFuture<JsonObject> request(LongFunction<String> frame) {
        long ref = refs.incrementAndGet();
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        pending.put(ref, answer);
        String text = frame.apply(ref);
        Channel ch = channel;
        if (!isOpen()) {
            pending.remove(ref);
            answer.completeExceptionally(new IllegalStateException("device " + id + " is closed (" + closeCode + ")"));
            return answer;
        }
        ch.writeAndFlush(new TextWebSocketFrame(text));
        lastSent = System.currentTimeMillis();
        return answer;
    }

    /** Forgets a request whose caller gave up waiting, so a late answer finds nobody. */
    void abandon(CompletableFuture<JsonObject> answer) {
        pending.values().remove(answer);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        channel = ctx.channel();
        super.channelActive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event == ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
            send(Frames.join(computeUnits, "ycsb-" + index));
        } else if (event == ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
            joined.completeExceptionally(new IllegalStateException("WebSocket handshake timed out"));
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
        lastReceived = System.currentTimeMillis();
        if (frame instanceof CloseWebSocketFrame close) {
            closeCode = close.statusCode();
            listener.deviceClosed(this, closeCode, close.reasonText());
            return;
        }
        if (!(frame instanceof TextWebSocketFrame textFrame)) {
            return;
        }
        String text = textFrame.text();
        if (Frames.HEARTBEAT.equals(text)) {
            return; // the server's answer to ours; nothing to do, and the commonest frame: no parsing
        }
        JsonObject message;
        try (JsonReader reader = RecordJson.JSON.createReader(new StringReader(text))) {
            message = reader.readObject();
        }
        String op = message.getString("op", "");
        switch (op) {
            case "welcome" -> welcome(ctx, message);
            case "start" -> {
                String aid = message.getString("aid");
                // A server without agent state sends no version: the agent then has none saved.
                listener.agentStarted(aid, message.containsKey("version") ? message.getJsonNumber("version").longValue() : 0, this);
                send(Frames.started(aid));
            }
            case "stop" -> {
                String aid = message.getString("aid");
                listener.agentStopped(aid);
                send(Frames.stopped(aid));
            }
            case "deliver" -> send(Frames.ackOf(message));
            default -> answer(message);
        }
    }

    private void welcome(ChannelHandlerContext ctx, JsonObject message) {
        id = message.getString("device");
        platform = message.getString("platform");
        long heartbeatMs = message.getJsonNumber("heartbeatMs").longValue();
        // Spread over the interval, as independent browsers would be, instead of all at once.
        heartbeats = ctx.channel().eventLoop().scheduleAtFixedRate(() -> heartbeat(heartbeatMs),
                ThreadLocalRandom.current().nextLong(heartbeatMs), heartbeatMs, TimeUnit.MILLISECONDS);
        joined.complete(this);
    }

    private void heartbeat(long heartbeatMs) {
        long now = System.currentTimeMillis();
        if (now - lastSent >= heartbeatMs || now - lastReceived >= heartbeatMs) {
            send(Frames.HEARTBEAT);
        }
    }

    private void answer(JsonObject message) {
        if (message.containsKey("ref") && !message.isNull("ref")) {
            CompletableFuture<JsonObject> request = pending.remove(message.getJsonNumber("ref").longValue());
            if (request != null) {
                request.complete(message);
            }
        } else if ("error".equals(message.getString("op", ""))) {
            if (!joined.isDone()) {
                joined.completeExceptionally(new IllegalStateException("join refused: " + message));
            } else {
                System.err.println("[ycsb-devices] device " + id + ": unsolicited " + message);
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (closeCode < 0) {
            closeCode = 1006; // closed without a close frame
            listener.deviceClosed(this, closeCode, "connection lost");
        }
        if (heartbeats != null) {
            heartbeats.cancel(false);
        }
        IllegalStateException closed = new IllegalStateException("device " + id + " closed (" + closeCode + ")");
        joined.completeExceptionally(closed);
        pending.values().forEach(request -> request.completeExceptionally(closed));
        pending.clear();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        System.err.println("[ycsb-devices] device " + index + " (" + id + ") fails and closes: " + cause);
        joined.completeExceptionally(cause);
        ctx.close();
    }

    private void send(String text) {
        Channel ch = channel;
        if (ch != null && ch.isActive()) {
            ch.writeAndFlush(new TextWebSocketFrame(text));
            lastSent = System.currentTimeMillis();
        }
    }
}
