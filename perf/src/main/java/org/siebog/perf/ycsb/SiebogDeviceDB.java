package org.siebog.perf.ycsb;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.json.JsonObject;
import jakarta.json.JsonNumber;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB through Siebog's device protocol: every record is a client agent's state, written and read by
 * the simulated device that hosts the agent, as a browser tab would through the JavaScript library.
 *
 * <ul>
 * <li>{@code insert}: {@code spawn} of an {@code Echo} agent named after the key on the key's device
 * ({@code device} = that device's own id), then {@code saveState} of version 0 with the record's fields.
 * <li>{@code update}: {@code saveState} with the version the device holds for the agent (from its
 * {@code start} frame or last {@code stateSaved}); a {@code 409}/{@code 503} gives the current version
 * back, the operation counts as failed.
 * <li>{@code read}: {@code loadState}. {@code delete}: {@code stopAgent}. {@code scan}: not implemented.
 * </ul>
 *
 * <p>One {@link DevicePool} per JVM serves every thread. A run phase (YCSB {@code -t}) waits until
 * {@code recordcount} agents run on its devices before it measures; with {@link DevicePoolWorkload} the
 * devices join and the agents are created before YCSB's clock starts. Besides the pool's properties:
 * {@code siebog.requesttimeoutms} (10000), {@code siebog.agentclass} (Echo).
 */
public final class SiebogDeviceDB extends DB {

    private DevicePool pool;
    private long timeoutMs;
    private String agentClass;

    @Override
    public void init() throws DBException {
        Properties props = getProperties();
        timeoutMs = Long.parseLong(props.getProperty("siebog.requesttimeoutms", "10000"));
        agentClass = props.getProperty("siebog.agentclass", "Echo");
        pool = DevicePool.acquire(props);
        if (Boolean.parseBoolean(props.getProperty("dotransactions", "true"))) {
            pool.awaitAgents(Long.parseLong(props.getProperty("recordcount", "0")),
                    Duration.ofSeconds(Long.parseLong(props.getProperty("siebog.placementstallseconds", "60"))));
        }
    }

    @Override
    public void cleanup() {
        DevicePool.release();
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        SimulatedDevice device = pool.deviceFor(key);
        JsonObject spawned = await(device, device.request(ref -> Frames.spawn(agentClass, key, device.id(), ref)));
        if (!"spawned".equals(op(spawned))) {
            return failed("spawn " + key, spawned);
        }
        HostedAgent agent = pool.spawned(spawned.getString("aid"), device);
        return save(agent, values);
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        HostedAgent agent = pool.agent(pool.aidFor(key));
        return agent == null ? Status.NOT_FOUND : save(agent, values);
    }

    /** Whether the record's agent runs on one of this JVM's devices. */
    boolean hosts(String key) {
        return pool.agent(pool.aidFor(key)) != null;
    }

    /** One save per agent at a time (the agent's monitor), as the library does. */
    private Status save(HostedAgent agent, Map<String, ByteIterator> values) {
        synchronized (agent) {
            SimulatedDevice device = agent.device();
            JsonObject answer = await(device, device.request(ref -> Frames.saveState(agent.aid(), agent.version(),
                    frame -> RecordJson.write(frame, "state", values), ref)));
            if (answer != null && answer.containsKey("version") && answer.get("version") instanceof JsonNumber v) {
                agent.observe(v.longValue()); // stateSaved's new version, or a 409/503's current one
            }
            return "stateSaved".equals(op(answer)) ? Status.OK : failed("saveState " + agent.aid(), answer);
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        HostedAgent agent = pool.agent(pool.aidFor(key));
        if (agent == null) {
            return Status.NOT_FOUND;
        }
        SimulatedDevice device = agent.device();
        JsonObject answer = await(device, device.request(ref -> Frames.loadState(agent.aid(), ref)));
        if (!"state".equals(op(answer))) {
            return failed("loadState " + agent.aid(), answer);
        }
        RecordJson.readInto(answer.get("state"), fields, result);
        return Status.OK;
    }

    @Override
    public Status delete(String table, String key) {
        HostedAgent agent = pool.agent(pool.aidFor(key));
        if (agent == null) {
            return Status.NOT_FOUND;
        }
        SimulatedDevice device = agent.device();
        JsonObject answer = await(device, device.request(ref -> Frames.stopAgent(agent.aid(), ref)));
        return "agentStopped".equals(op(answer)) ? Status.OK : failed("stopAgent " + agent.aid(), answer);
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        return Status.NOT_IMPLEMENTED;
    }

    /** The answer, or null when none came in time or the socket died (a failed operation either way). */
    private JsonObject await(SimulatedDevice device, CompletableFuture<JsonObject> answer) {
        try {
            return answer.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            device.abandon(answer);
        }
        return null;
    }

    private Status failed(String what, JsonObject answer) {
        int status = answer != null && "error".equals(op(answer)) ? answer.getInt("status", 0) : 0;
        pool.countError(status, what, answer); // 0: no answer in time
        return status == 404 ? Status.NOT_FOUND : Status.ERROR;
    }

    private static String op(JsonObject answer) {
        return answer == null ? null : answer.getString("op", null);
    }
}
