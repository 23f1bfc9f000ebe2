package org.siebog.connection;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.api.NodeHealth;
import org.siebog.delivery.AgentExecutor;

/**
 * This node's {@link NodeHealth}: read from its meters (docs/admin.md, "Metrics") and the JVM, so
 * {@code GET /api/nodes} and Prometheus tell the same story. The message rates come from a sample of
 * the two message counters taken each second; the last {@link #WINDOW_S} seconds of samples are kept.
 */
@ApplicationScoped
class NodeHealthProbe {

    private static final Logger LOG = Logger.getLogger(NodeHealthProbe.class.getName());
    static final int WINDOW_S = 10;

    @Inject
    MeterRegistry meters;

    @Inject
    AgentExecutor executor;

    private record Sample(long nanos, double admitted, double delivered) {
    }

    /** At most WINDOW_S + 1 samples, oldest first; guarded by itself. */
    private final Deque<Sample> samples = new ArrayDeque<>();
    private final AtomicBoolean begun = new AtomicBoolean();

    void begin(@Observes @Initialized(ApplicationScoped.class) Object deployed) {
        if (!begun.getAndSet(true)) { // fired once per module of the EAR
            executor.timer().scheduleAtFixedRate(this::sampleSafely, 0, 1, TimeUnit.SECONDS);
        }
    }

    NodeHealth health() {
        Sample now = sample();
        Sample first;
        synchronized (samples) {
            first = samples.isEmpty() ? now : samples.peekFirst();
        }
        double seconds = (now.nanos() - first.nanos()) / 1e9;
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        double cpu = gauge("process.cpu.usage", null, null);
        return new NodeHealth(heap.getUsed(), heap.getMax(), Double.isNaN(cpu) ? -1 : cpu, (int) gauge("siebog.devices", null, null),
                seconds > 0 ? (now.admitted() - first.admitted()) / seconds : 0,
                seconds > 0 ? (now.delivered() - first.delivered()) / seconds : 0,
                (long) gauge("siebog.mailbox.depth", "of", "sum"), (long) gauge("siebog.replication.log", "held", "queued"),
                ManagementFactory.getRuntimeMXBean().getUptime());
    }

    private void sampleSafely() {
        try {
            Sample sample = sample();
            synchronized (samples) {
                samples.addLast(sample);
                while (samples.size() > WINDOW_S + 1) {
                    samples.removeFirst();
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not sample the message counters", e);
        }
    }

    private Sample sample() {
        Counter admitted = meters.find("siebog.messages.admitted").counter();
        Counter delivered = meters.find("siebog.messages.delivered").counter();
        return new Sample(System.nanoTime(), admitted == null ? 0 : admitted.count(), delivered == null ? 0 : delivered.count());
    }

    /** A gauge of this node's meters (with the tag, when given); 0 before it is registered. */
    private double gauge(String name, String tag, String value) {
        Gauge gauge = (tag == null ? meters.find(name) : meters.find(name).tag(tag, value)).gauge();
        return gauge == null ? 0 : gauge.value();
    }
}
