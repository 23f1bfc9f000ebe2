package org.siebog.state;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Where the Cassandra state store connects and how, from the node's system properties
 * ({@code -Dsiebog.cassandra.contact-points=...}; the launcher sets them, docs/persistence.md lists them).
 * Without {@code siebog.cassandra.contact-points} there is no store: {@link #fromProperties} is empty.
 *
 * @param contactPoints  {@code host:port} of one or more nodes of the cluster (port 9042 when left out)
 * @param localDc        the datacenter the driver sends requests to (required by the driver with contact points)
 * @param keyspace       the keyspace of Siebog's tables
 * @param replication    the keyspace's replication, written as {@code SimpleStrategy:N} or
 *                       {@code NetworkTopologyStrategy:dc1=N,dc2=M}; used only when the keyspace is created
 * @param maxInFlight    requests this node sends at once; more wait their turn, in order
 * @param requestTimeout a read or write's timeout
 * @param schemaTimeout  a schema statement's timeout (a fresh node can take seconds to create a table)
 * @param username       for PlainTextAuthProvider, or null when the cluster needs no authentication
 * @param password       its password (system property or env {@code SIEBOG_CASSANDRA_PASSWORD}; never in the repo)
 */
public record CassandraConfig(List<InetSocketAddress> contactPoints, String localDc, String keyspace,
        String replication, int maxInFlight, Duration requestTimeout, Duration schemaTimeout,
        String username, String password) {

    public static final String PREFIX = "siebog.cassandra.";
    public static final int DEFAULT_PORT = 9042;
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,47}");
    private static final Pattern DC_NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,64}");

    public CassandraConfig {
        if (contactPoints.isEmpty()) {
            throw new IllegalArgumentException(PREFIX + "contact-points names no node");
        }
        contactPoints = List.copyOf(contactPoints);
        if (localDc == null || localDc.isBlank()) {
            throw new IllegalArgumentException(PREFIX + "local-datacenter is needed with contact points (e.g. datacenter1)");
        }
        if (!NAME.matcher(keyspace).matches()) {
            throw new IllegalArgumentException(PREFIX + "keyspace '" + keyspace
                    + "' is not a keyspace name (a letter, then letters, digits or _; at most 48)");
        }
        replicationCql(replication); // fails on a malformed one
        if (maxInFlight < 1) {
            throw new IllegalArgumentException(PREFIX + "max-in-flight must be at least 1, got " + maxInFlight);
        }
        if ((username == null) != (password == null)) {
            throw new IllegalArgumentException(PREFIX + "username and password go together (one of them is missing)");
        }
    }

    /** The node's configuration: system properties, the password also from env SIEBOG_CASSANDRA_PASSWORD. */
    public static Optional<CassandraConfig> fromSystem() {
        return fromProperties(System.getProperties(), System.getenv("SIEBOG_CASSANDRA_PASSWORD"));
    }

    public static Optional<CassandraConfig> fromProperties(Properties p, String passwordFromEnv) {
        String points = p.getProperty(PREFIX + "contact-points", "").trim();
        if (points.isEmpty()) {
            return Optional.empty();
        }
        String password = p.getProperty(PREFIX + "password", passwordFromEnv);
        String username = p.getProperty(PREFIX + "username");
        return Optional.of(new CassandraConfig(
                parseContactPoints(points),
                p.getProperty(PREFIX + "local-datacenter", "").trim(),
                p.getProperty(PREFIX + "keyspace", "siebog").trim(),
                p.getProperty(PREFIX + "replication", "SimpleStrategy:1").trim(),
                intProperty(p, "max-in-flight", 16),
                Duration.ofMillis(intProperty(p, "request-timeout-ms", 5_000)),
                Duration.ofMillis(intProperty(p, "schema-timeout-ms", 60_000)),
                username == null || username.isBlank() ? null : username,
                username == null || username.isBlank() ? null : password));
    }

    static List<InetSocketAddress> parseContactPoints(String points) {
        List<InetSocketAddress> result = new ArrayList<>();
        for (String point : points.split(",")) {
            String p = point.trim();
            if (p.isEmpty()) {
                continue;
            }
            String host = p;
            int port = DEFAULT_PORT;
            int colon = p.lastIndexOf(':');
            if (colon > 0 && p.indexOf(':') == colon) { // host:port (an IPv6 address goes in [brackets]:port)
                host = p.substring(0, colon);
                port = port(p.substring(colon + 1), p);
            } else if (p.startsWith("[") && p.contains("]:")) {
                host = p.substring(1, p.indexOf("]:"));
                port = port(p.substring(p.indexOf("]:") + 2), p);
            }
            result.add(InetSocketAddress.createUnresolved(host, port));
        }
        if (result.isEmpty()) {
            throw new IllegalArgumentException(PREFIX + "contact-points names no node: '" + points + "'");
        }
        return result;
    }

    private static int port(String text, String point) {
        try {
            int port = Integer.parseInt(text);
            if (port < 1 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + "contact-points: bad port in '" + point + "'");
        }
    }

    private static int intProperty(Properties p, String name, int defaultValue) {
        String value = p.getProperty(PREFIX + name);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + name + " must be a whole number, got '" + value + "'");
        }
    }

    /** The replication setting as CQL: {@code SimpleStrategy:3} → {@code {'class': 'SimpleStrategy', 'replication_factor': 3}}. */
    static String replicationCql(String replication) {
        String bad = PREFIX + "replication '" + replication
                + "' is not SimpleStrategy:N or NetworkTopologyStrategy:dc1=N[,dc2=M...]";
        if (replication == null) {
            throw new IllegalArgumentException(bad);
        }
        int colon = replication.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(bad);
        }
        String strategy = replication.substring(0, colon).trim();
        String factors = replication.substring(colon + 1).trim();
        Map<String, Integer> map = new LinkedHashMap<>();
        try {
            if (strategy.equals("SimpleStrategy")) {
                map.put("replication_factor", positive(factors));
            } else if (strategy.equals("NetworkTopologyStrategy")) {
                for (String entry : factors.split(",")) {
                    String[] kv = entry.split("=", 2);
                    if (kv.length != 2 || !DC_NAME.matcher(kv[0].trim()).matches()) {
                        throw new IllegalArgumentException(bad);
                    }
                    map.put(kv[0].trim(), positive(kv[1]));
                }
            } else {
                throw new IllegalArgumentException(bad);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(bad);
        }
        return map.entrySet().stream()
                .map(e -> "'" + e.getKey() + "': " + e.getValue())
                .collect(Collectors.joining(", ", "{'class': '" + strategy + "', ", "}"));
    }

    private static int positive(String text) {
        int n = Integer.parseInt(text.trim());
        if (n < 1) {
            throw new NumberFormatException();
        }
        return n;
    }

    /** Contact points as {@code host:port,...}, for messages. */
    public String contactPointsText() {
        return contactPoints.stream().map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(","));
    }
}
