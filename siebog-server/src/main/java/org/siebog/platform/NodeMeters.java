package org.siebog.platform;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.ObjectName;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The node's one {@link MeterRegistry}: every bean registers the meters of what it owns here
 * ({@code @Inject MeterRegistry}), beside the JVM's (memory, GC, threads, CPU, uptime), and
 * {@code GET /api/metrics} serves them all in Prometheus' text format (docs/admin.md, "Metrics").
 *
 * <p>Why not WildFly's {@code micrometer} subsystem: the registry it injects forwards to the server's
 * registry only the meters made by name and tags ({@code counter(name, tags)}, ...); a meter made
 * with a builder (a description, histogram buckets, a base unit) stays in a local registry nobody
 * exports. Its Prometheus endpoint is on the management interface, which authenticates with Digest
 * only (Prometheus speaks Basic), and a domain's servers have no management interface to serve it.
 */
@ApplicationScoped
class NodeMeters {

    private JvmGcMetrics gc;

    /** A pseudo-scoped singleton: a normal scope would need a proxy, which the registry's class cannot have. */
    @Produces
    @Singleton
    PrometheusMeterRegistry registry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        gc = new JvmGcMetrics();
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        // ProcessorMetrics reads the process's CPU through com.sun.management, which WildFly does not let a deployment see.
        Gauge.builder("process.cpu.usage", NodeMeters::processCpuLoad).description("The recent CPU usage of the node's process (0-1)")
                .register(registry);
        return registry;
    }

    /** The process's CPU use (0-1) from the platform MBean, read by attribute name; NaN when the JVM cannot tell. */
    private static double processCpuLoad() {
        try {
            Object load = ManagementFactory.getPlatformMBeanServer().getAttribute(new ObjectName("java.lang:type=OperatingSystem"),
                    "ProcessCpuLoad");
            return load instanceof Double d && d >= 0 ? d : Double.NaN;
        } catch (JMException e) {
            return Double.NaN;
        }
    }

    void close(@Disposes PrometheusMeterRegistry registry) {
        if (gc != null) {
            gc.close(); // it listens to the JVM's GC notifications
        }
        registry.close();
    }
}
