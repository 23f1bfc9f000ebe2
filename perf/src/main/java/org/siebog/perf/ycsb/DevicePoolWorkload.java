package org.siebog.perf.ycsb;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import site.ycsb.Client;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's {@link CoreWorkload} for {@link SiebogDeviceDB}, plus what has to happen before YCSB's clock
 * starts: YCSB calls a {@code DB}'s {@code init} inside its timed threads (the run time and
 * {@code maxexecutiontime} count it), but a {@code Workload}'s {@code init} before them. So the device
 * pool joins here, and, with {@code siebog.preload=true}, creates every record's agent (spawn on its
 * device, first {@code saveState}, as {@link SiebogDeviceDB#insert} does) with {@code threadcount} threads.
 *
 * <p>Why a run phase creates its records itself: a YCSB load phase in a JVM of its own cannot be followed
 * by a run phase without measuring something else: its devices end with its JVM, and the run phase
 * would open with the node restarting all their agents on the new devices as those join.
 */
public final class DevicePoolWorkload extends CoreWorkload {

    @Override
    public void init(Properties props) throws WorkloadException {
        super.init(props);
        try {
            DevicePool.acquire(props);
            if (Boolean.parseBoolean(props.getProperty("siebog.preload", "false"))) {
                preload(props);
            }
        } catch (DBException e) {
            DevicePool.release();
            throw new WorkloadException(e.getMessage(), e);
        }
    }

    @Override
    public void cleanup() throws WorkloadException {
        super.cleanup();
        DevicePool.release();
    }

    /**
     * A second chance for records whose insert failed. Seen on a fresh node: the very first spawn fails
     * ("failed to start: ... "key" is null") while the node's device sweep starts the same agent "again"
     * on another device; the agent then exists, on one of these devices, with nothing saved. Such an
     * agent gets its first state saved; any other record is inserted again. Returns how many still fail.
     */
    private static long retry(SiebogDeviceDB loader, RecordKeys keys, List<String> failedKeys) throws InterruptedException {
        if (failedKeys.isEmpty()) {
            return 0;
        }
        Thread.sleep(2_000); // the sweep's start frame, if any, has arrived by then
        long failed = 0;
        for (String key : failedKeys) {
            boolean started = loader.hosts(key);
            Status status = started ? loader.update(null, key, keys.record()) : loader.insert(null, key, keys.record());
            DevicePool.log("preload: %s again (%s): %s", key, started ? "the node started its agent anyway: save" : "insert", status);
            if (!status.isOk()) {
                failed++;
            }
        }
        return failed;
    }

    private static void preload(Properties props) throws DBException, WorkloadException {
        RecordKeys keys = new RecordKeys(props);
        SiebogDeviceDB loader = new SiebogDeviceDB();
        Properties loading = new Properties();
        loading.putAll(props);
        loading.setProperty("dotransactions", "false"); // its init must not wait for the agents it is to create
        loader.setProperties(loading);
        loader.init();
        try {
            int threads = Integer.parseInt(props.getProperty(Client.THREAD_COUNT_PROPERTY, "1"));
            long count = keys.count();
            long[] latencyNanos = new long[Math.toIntExact(count)];
            AtomicLong next = new AtomicLong();
            List<String> failedKeys = Collections.synchronizedList(new ArrayList<>());
            long started = System.nanoTime();
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                workers[t] = new Thread(() -> {
                    for (long i; (i = next.getAndIncrement()) < count; ) {
                        long begin = System.nanoTime();
                        String key = keys.key(i);
                        if (!loader.insert(null, key, keys.record()).isOk()) {
                            failedKeys.add(key);
                        }
                        latencyNanos[(int) i] = System.nanoTime() - begin;
                    }
                }, "siebog-preload-" + t);
                workers[t].start();
            }
            for (Thread worker : workers) {
                worker.join();
            }
            long failed = retry(loader, keys, failedKeys);
            double seconds = (System.nanoTime() - started) / 1e9;
            Arrays.sort(latencyNanos);
            DevicePool.log("preload: %d agents spawned and saved in %.1f s (%.0f/s), avg %.1f ms, p99 %.1f ms, %d failed",
                    count, seconds, count / seconds, Arrays.stream(latencyNanos).average().orElse(0) / 1e6,
                    count == 0 ? 0 : latencyNanos[(int) Math.min(count - 1, count * 99 / 100)] / 1e6, failed);
            if (failed > 0) {
                throw new DBException(failed + " of " + count + " records could not be preloaded");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DBException("interrupted while preloading", e);
        } finally {
            loader.cleanup();
        }
    }
}
