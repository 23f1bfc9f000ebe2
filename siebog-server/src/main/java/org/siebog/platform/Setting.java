package org.siebog.platform;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Every setting of a Siebog node, in one place: its system property, its default and how it is
 * read. An admin sets them per node ({@code -Dsiebog.mailbox.capacity=...}, or
 * {@code /system-property=...:add(value=...)} in jboss-cli); the README's configuration table lists
 * them all (SettingsDocumentedTest holds it to this list, and no other class reads a
 * {@code siebog.*} property).
 *
 * <p>Why system properties and not MicroProfile Config: they are what WildFly's own CLI, domain
 * profiles and {@code standalone.sh -D} set, what the launcher, the tests and the Docker image
 * already pass, and they need nothing on a unit test's class path.
 *
 * <p>Most settings are read once, when the part that uses them starts (the values on the message
 * path are kept in {@link PlatformConfig#SYSTEM}); the device admission and placement settings are
 * read each time they apply, so a changed {@code /system-property} takes effect on the next device
 * or placement without a restart (their classes say so).
 */
public enum Setting {

    PLATFORM("siebog.platform", "siebog"),
    MAILBOX_CAPACITY("siebog.mailbox.capacity", "10000"),
    MAILBOX_THROUGHPUT("siebog.mailbox.throughput", "32"),
    MAX_CONTENT_CHARS("siebog.message.max-content-chars", "1048576"),
    MAX_ENVELOPE_CHARS("siebog.message.max-envelope-chars", "131072"),
    MAX_RECEIVERS("siebog.message.max-receivers", "1000"),
    MAX_DELAY_MS("siebog.message.max-delay-ms", "86400000"),
    MAX_DELAYED_BYTES("siebog.message.max-delayed-bytes", "67108864"),
    MAX_AWAIT_REPLY_MS("siebog.message.max-await-reply-ms", "300000"),
    MAX_PENDING_ASKS("siebog.agent.max-pending-asks", "1000"),
    EXECUTOR_LANES("siebog.executor.lanes", "cores", () -> Integer.toString(Runtime.getRuntime().availableProcessors())),
    PLACEMENT("siebog.placement", "round-robin"),
    FAILOVER_PARALLELISM("siebog.failover.parallelism", "128"),
    SAVE_INTERVAL_MS("siebog.replication.save-interval-ms", "1000"),
    SAVE_AFTER_BYTES("siebog.replication.save-after-bytes", "1048576"),
    MAX_LOG_BYTES("siebog.replication.max-log-bytes", "an eighth of the heap", () -> Long.toString(Runtime.getRuntime().maxMemory() / 8)),
    DEDUPE_HORIZON_MS("siebog.replication.dedupe-horizon-ms", "600000"),
    MAX_LINK_BYTES("siebog.cluster.max-link-bytes", "67108864"),
    LINK_PORT("siebog.cluster.link-port", "0"),
    CLUSTER_LEASE_MS("siebog.cluster.lease-ms", "2000"),
    DEVICE_HEARTBEAT_MS("siebog.device.heartbeat-ms", "5000"),
    DEVICE_MAX_FRAME_BYTES("siebog.device.max-frame-bytes", "262144"),
    DEVICE_REJOIN_WINDOW_MS("siebog.device.rejoin-window-ms", "10000"),
    DEVICE_ALLOWED_ORIGINS("siebog.device.allowed-origins", null),
    DEVICE_JOIN_TOKEN("siebog.device.join-token", null),
    DEVICE_MAX_OUTBOX_BYTES("siebog.device.max-outbox-bytes", "1048576"),
    // Far above what the library, the YCSB binding and perf/devices send (docs/device-protocol.md, "Admission").
    DEVICE_MAX_FRAMES_PER_SECOND("siebog.device.max-frames-per-second", "2000"),
    DEVICE_FRAME_BURST("siebog.device.frame-burst", "4000"),
    DEVICE_MAX_REFUSED_FRAMES("siebog.device.max-refused-frames", "4000"),
    DEVICE_SPAWNABLE_CLASSES("siebog.device.spawnable-classes", "kind:client"),
    DEVICE_START_TIMEOUT_MS("siebog.device.start-timeout-ms", "10000"),
    DEVICE_START_BACKOFF_MS("siebog.device.start-backoff-ms", "60000"),
    DEVICE_MAX_SHARE("siebog.device.max-share", "0.25"),
    DEVICE_MAX_COMPUTE_UNITS("siebog.device.max-compute-units", "10000"),
    DEVICE_TRUST_CLAIMED_COMPUTE_UNITS("siebog.device.trust-claimed-compute-units", "false"),
    DEVICE_PLACEMENT_SEED("siebog.device.placement-seed", "random", () -> null),
    STATE_MAX_BYTES("siebog.state.max-bytes", "65536"),
    STATE_MAX_PENDING("siebog.state.max-pending", "256"),
    EVENTS_MAX_SUBSCRIBERS("siebog.events.max-subscribers", "64"),
    DF_MAX_SERVICES_PER_AGENT("siebog.df.max-services-per-agent", "32"),
    DF_MAX_LEASE_MS("siebog.df.max-lease-ms", "86400000"),
    TOPIC_MAX_SUBSCRIPTIONS_PER_AGENT("siebog.topic.max-subscriptions-per-agent", "64"),
    TOPIC_MAX_SUBSCRIBERS("siebog.topic.max-subscribers", "10000"),
    TUPLES_MAX_TUPLES("siebog.tuples.max-tuples", "10000"),
    TUPLES_MAX_WAITING("siebog.tuples.max-waiting", "10000");

    private static final Logger LOG = Logger.getLogger(Setting.class.getName());
    /** Settings whose bad value was reported: once each, not at every read. */
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private final String property;
    private final String documentedDefault;
    private final Supplier<String> defaultValue;

    Setting(String property, String defaultValue) {
        this(property, defaultValue, () -> defaultValue);
    }

    Setting(String property, String documentedDefault, Supplier<String> defaultValue) {
        this.property = property;
        this.documentedDefault = documentedDefault;
        this.defaultValue = defaultValue;
    }

    /** Its system property, e.g. {@code siebog.mailbox.capacity}. */
    public String property() {
        return property;
    }

    /** Its default as the README's table says it ({@code cores}, {@code an eighth of the heap}); null when it has none. */
    public String documentedDefault() {
        return documentedDefault;
    }

    /** The value set now, or the default; empty when neither is there. */
    public Optional<String> text() {
        String set = System.getProperty(property);
        return Optional.ofNullable(set != null ? set : defaultValue.get());
    }

    public int intValue() {
        return (int) number(Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    public long longValue() {
        return number(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** A number; a value set that is not one is reported once and the default used. */
    public double doubleValue() {
        String set = System.getProperty(property);
        if (set != null) {
            try {
                return Double.parseDouble(set.trim());
            } catch (NumberFormatException e) {
                reportOnce(set, "a number");
            }
        }
        return Double.parseDouble(defaultValue.get());
    }

    public boolean booleanValue() {
        return Boolean.parseBoolean(text().orElse("false").trim());
    }

    /** A whole number; a value set that is not one (or out of range) is reported once and the default used. */
    private long number(long min, long max) {
        String set = System.getProperty(property);
        if (set != null) {
            try {
                long value = Long.parseLong(set.trim());
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            reportOnce(set, "a whole number");
        }
        return Long.parseLong(defaultValue.get());
    }

    /** Says once that {@code set} is not a valid value and that the default applies. */
    public void reportOnce(String set, String whatItMustBe) {
        if (REPORTED.add(property + "=" + set)) {
            LOG.warning(() -> property + " must be " + whatItMustBe + ", not '" + set + "': using " + defaultValue.get());
        }
    }
}
