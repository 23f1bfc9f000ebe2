package org.siebog.perf.ycsb;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;

import site.ycsb.DBException;

/**
 * The simulated devices of one YCSB JVM, shared by all its threads (devices ≫ threads: a thread
 * borrows whichever device holds the record's agent). Each device is its own WebSocket; all of them
 * share a couple of Netty event loops, so 16,000 devices cost sockets and a few KB of heap each, not
 * threads.
 *
 * <p>Which device holds which agent is what the server says in {@code start} frames: in the load
 * phase the agents are spawned onto the device their key hashes to; a run phase in a new JVM joins
 * new devices, and the server starts the load phase's agents on them again (their old devices left),
 * with their saved state and version.
 *
 * <p>YCSB properties: {@code siebog.url} (ws://127.0.0.1:8080/siebog/ws/device), {@code siebog.devices}
 * (1000), {@code siebog.computeunits} (10), {@code siebog.joinconcurrency} (200 handshakes and joins in
 * flight), {@code siebog.eventloops} (the number of cores), {@code siebog.placementstallseconds} (60).
 */
final class DevicePool implements SimulatedDevice.Listener {

    private static DevicePool shared;
    private static int users;

    private final EventLoopGroup group;
    private final List<SimulatedDevice> devices; // filled by open(), read-only once the pool is shared
    private final Map<String, HostedAgent> agents = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> closedByCode = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> errorsByStatus = new ConcurrentHashMap<>();
    private volatile String platform;
    private volatile boolean closing;

    /** The pool of this JVM, opened (all devices joined) by the first caller. */
    static synchronized DevicePool acquire(Properties props) throws DBException {
        if (shared == null) {
            shared = open(props);
        }
        users++;
        return shared;
    }

    static synchronized void release() {
        if (--users == 0) {
            shared.close();
            shared = null;
        }
    }

    private DevicePool(EventLoopGroup group, int count) {
        this.group = group;
        this.devices = new ArrayList<>(count);
    }

    private static DevicePool open(Properties props) throws DBException {
        URI uri = URI.create(props.getProperty("siebog.url", "ws://127.0.0.1:8080/siebog/ws/device"));
        int count = Integer.parseInt(props.getProperty("siebog.devices", "1000"));
        int computeUnits = Integer.parseInt(props.getProperty("siebog.computeunits", "10"));
        int concurrency = Integer.parseInt(props.getProperty("siebog.joinconcurrency", "200"));
        int loops = Integer.parseInt(props.getProperty("siebog.eventloops",
                Integer.toString(Runtime.getRuntime().availableProcessors())));
        long heapBefore = liveHeap();
        long started = System.nanoTime();
        EventLoopGroup group = new NioEventLoopGroup(loops);
        DevicePool pool = new DevicePool(group, count);
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 30_000);
        WebSocketClientProtocolConfig wsConfig = WebSocketClientProtocolConfig.newBuilder()
                .webSocketUri(uri)
                .maxFramePayloadLength(256 * 1024)
                .handshakeTimeoutMillis(60_000)
                .build();
        Semaphore inFlight = new Semaphore(concurrency);
        List<CompletableFuture<SimulatedDevice>> joins = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                SimulatedDevice device = new SimulatedDevice(i, computeUnits, pool);
                pool.devices.add(device);
                inFlight.acquire();
                device.joined().whenComplete((d, e) -> inFlight.release());
                joins.add(device.joined());
                bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(64 * 1024),
                                new WebSocketClientProtocolHandler(wsConfig),
                                new WebSocketFrameAggregator(256 * 1024), device);
                    }
                }).connect(uri.getHost(), uri.getPort()).addListener(f -> {
                    if (!f.isSuccess()) {
                        device.joined().completeExceptionally(f.cause());
                    }
                });
                if ((i + 1) % 1000 == 0) {
                    log("%d of %d devices connecting or joined (%.0f s)", i + 1, count, seconds(started));
                }
            }
            CompletableFuture.allOf(joins.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
        } catch (Exception e) {
            long failed = joins.stream().filter(CompletableFuture::isCompletedExceptionally).count();
            pool.closing = true;
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new DBException(failed + " of " + count + " devices could not join " + uri + ": " + e, e);
        }
        pool.platform = pool.devices.get(0).platform();
        long heapAfter = liveHeap();
        log("%d devices joined %s in %.1f s; heap %d MB more (%.1f KB per device)", count, uri, seconds(started),
                (heapAfter - heapBefore) >> 20, (heapAfter - heapBefore) / 1024.0 / count);
        return pool;
    }

    @Override
    public void agentStarted(String aid, long version, SimulatedDevice device) {
        agents.computeIfAbsent(aid, a -> new HostedAgent(a, device, version)).startedOn(device, version);
    }

    @Override
    public void agentStopped(String aid) {
        agents.remove(aid);
    }

    @Override
    public void deviceClosed(SimulatedDevice device, int closeCode, String reason) {
        if (closing) {
            return;
        }
        closedByCode.computeIfAbsent(closeCode, c -> new LongAdder()).increment();
        if (closeCode != 1000) {
            log("device %d (%s) closed: %d %s", device.index(), device.id(), closeCode, reason);
        }
    }

    /** The device a new record's agent goes to: fixed by the key, so a key always means the same device. */
    SimulatedDevice deviceFor(String key) {
        return devices.get(Math.floorMod(key.hashCode(), devices.size()));
    }

    /** The agent of a record: its name is the key. */
    String aidFor(String key) {
        return key + "@" + platform;
    }

    /** The agent, if the server started it on one of this pool's devices. */
    HostedAgent agent(String aid) {
        return agents.get(aid);
    }

    /** Records a spawn's placement before (or after) its {@code start} frame is read. */
    HostedAgent spawned(String aid, SimulatedDevice device) {
        return agents.computeIfAbsent(aid, a -> new HostedAgent(a, device, 0));
    }

    /** A failed request: {@code answer} is the error frame, or null when none came in time. The first few are shown. */
    void countError(int status, String what, Object answer) {
        LongAdder count = errorsByStatus.computeIfAbsent(status, s -> new LongAdder());
        count.increment();
        if (count.sum() <= 3) {
            log("%s failed: %s", what, answer == null ? "no answer in time" : answer);
        }
    }

    /**
     * A run phase needs every record's agent on its devices before it measures: waits until {@code count}
     * agents were started here (the server restarts the load phase's agents as these devices join), or
     * fails once none more came for {@code stall}.
     */
    void awaitAgents(long count, Duration stall) throws DBException {
        if (agents.size() >= count) {
            return;
        }
        long started = System.nanoTime();
        long lastLog = started;
        long lastProgress = started;
        int seen = 0;
        while (agents.size() < count) {
            if (agents.size() != seen) {
                seen = agents.size();
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > stall.toNanos()) {
                throw new DBException("only " + seen + " of " + count + " agents were started on this JVM's "
                        + devices.size() + " devices, none more for " + stall.toSeconds()
                        + " s; did the load phase run against this node?");
            }
            if (System.nanoTime() - lastLog > TimeUnit.SECONDS.toNanos(5)) {
                log("%d of %d agents started on the devices (%.0f s)", agents.size(), count, seconds(started));
                lastLog = System.nanoTime();
            }
            sleep(100);
        }
        Map<SimulatedDevice, Integer> perDevice = new HashMap<>();
        agents.values().forEach(agent -> perDevice.merge(agent.device(), 1, Integer::sum));
        log("%d agents on %d of %d devices (at most %d on one) after %.1f s", agents.size(), perDevice.size(),
                devices.size(), perDevice.values().stream().mapToInt(Integer::intValue).max().orElse(0), seconds(started));
    }

    private void close() {
        long open = devices.stream().filter(SimulatedDevice::isOpen).count();
        log("%d of %d devices still open at the end; closed by the server: %s; error answers by status: %s",
                open, devices.size(), counts(closedByCode), counts(errorsByStatus));
        // No `leave`: the devices vanish together, like closed tabs, so the server does not shuffle every
        // agent across the remaining devices one departure at a time.
        closing = true;
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static Map<Integer, Long> counts(Map<Integer, LongAdder> adders) {
        Map<Integer, Long> sorted = new TreeMap<>();
        adders.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted;
    }

    private static long liveHeap() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static double seconds(long sinceNanos) {
        return (System.nanoTime() - sinceNanos) / 1e9;
    }

    private static void sleep(long millis) throws DBException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DBException("interrupted", e);
        }
    }

    static void log(String format, Object... args) {
        System.err.println("[ycsb-devices] " + String.format(Locale.ROOT, format, args));
    }
}
