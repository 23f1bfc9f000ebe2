package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What can be checked of docker/ without a Docker engine: the compose file is valid Compose (and
 * the check rejects a broken one), and the node image takes its WildFly configuration from the
 * same two files as every local node (siebog-server/src/main/wildfly/), with discovery on the
 * port that configuration binds.
 *
 * Docker Compose v2 comes from launcher/ensure-docker-compose.sh, which installs it when absent.
 */
class DockerConfigIT {

    private static final String CONFIG_DIR = "siebog-server/src/main/wildfly/";
    private static final String CLUSTER_PROFILE = CONFIG_DIR + "cluster-profile.cli";
    private static final String MAKE_NODE_CONFIG = CONFIG_DIR + "make-node-config.sh";
    private static final String NODE_DOCKERFILE = "docker/node/Dockerfile";
    private static final Pattern HOST_PORT = Pattern.compile("([^\\[\\],]+)\\[(\\d+)\\]");

    private static Path root;
    private static Path composeFile;
    private static List<String> compose;

    @BeforeAll
    static void dockerCompose() {
        root = Path.of(System.getProperty("siebog.root", "..")).toAbsolutePath().normalize();
        composeFile = root.resolve("docker/compose.yaml");
        assertTrue(Files.isRegularFile(composeFile), "no " + composeFile);
        Result ensured = run(root, 900,
                "bash", root.resolve("launcher/ensure-docker-compose.sh").toString(), "--print-command");
        assertEquals(0, ensured.exit(),
                "launcher/ensure-docker-compose.sh could not provide Docker Compose v2:\n" + ensured.err());
        System.err.print(ensured.err()); // says so when it installed Compose
        String command = ensured.out().strip().lines().reduce((first, second) -> second).orElse("");
        assertFalse(command.isBlank(), "launcher/ensure-docker-compose.sh printed no command");
        compose = List.of(command.split(" "));
    }

    // ---- (a) docker compose config ----

    @Test
    void composeFileIsValid() {
        Result result = compose(root, "-f", composeFile.toString(), "config", "--quiet");
        assertEquals(0, result.exit(), "docker compose config rejected docker/compose.yaml:\n" + result.err());
    }

    /** No image or compose file comes with a password: without SIEBOG_ADMIN_PASSWORD the cluster does not start. */
    @Test
    void composeNeedsTheAdminPassword() {
        Result result = composeWith(Map.of("SIEBOG_CLUSTER_SECRET", "compose-config-check-secret"), root, "-f",
                composeFile.toString(), "config", "--quiet");
        assertNotEquals(0, result.exit(), "docker compose config accepted docker/compose.yaml without SIEBOG_ADMIN_PASSWORD");
        assertTrue(result.err().contains("SIEBOG_ADMIN_PASSWORD"), "the refusal names the variable:\n" + result.err());
    }

    /** Nor with a cluster secret: without SIEBOG_CLUSTER_SECRET the cluster does not start. */
    @Test
    void composeNeedsTheClusterSecret() {
        Result result = composeWith(Map.of("SIEBOG_ADMIN_PASSWORD", "compose-config-check"), root, "-f", composeFile.toString(),
                "config", "--quiet");
        assertNotEquals(0, result.exit(), "docker compose config accepted docker/compose.yaml without SIEBOG_CLUSTER_SECRET");
        assertTrue(result.err().contains("SIEBOG_CLUSTER_SECRET"), "the refusal names the variable:\n" + result.err());
    }

    /** The same check on a copy with one deliberate mistake fails: the check above can fail. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an undefined service in depends_on | '    cassandra:\\n      condition: service_healthy' | '    cassandr:\\n      condition: service_healthy' | cassandr
            an unknown depends_on condition    | 'condition: service_healthy'                         | 'condition: service_ready'                          | condition
            a port that is no number           | '"8082:8080"'                                        | '"8082:80a80"'                                      | 80a80
            an unknown service attribute       | '  node2:\\n    <<: *node'                           | '  node2:\\n    <<: *node\\n    buidl: .'            | buidl
            """)
    void composeRejectsABrokenCopy(String mistake, String original, String broken, String named) throws IOException {
        String text = Files.readString(composeFile);
        String from = original.replace("\\n", "\n");
        assertTrue(text.contains(from), "docker/compose.yaml no longer contains " + from + "; update this test");
        Path dir = Files.createTempDirectory("siebog-compose-check");
        try {
            Path copy = dir.resolve("compose.yaml");
            Files.writeString(copy, text.replace(from, broken.replace("\\n", "\n")));
            // Same project directory as the real file, so only the mistake differs.
            Result result = compose(root, "-f", copy.toString(), "--project-directory",
                    composeFile.getParent().toString(), "config", "--quiet");
            assertNotEquals(0, result.exit(), "docker compose config accepted a copy with " + mistake);
            // ... and for that mistake, not for something else about the copy.
            assertTrue(result.err().contains(named),
                    "docker compose config rejected a copy with " + mistake + " but did not name '" + named + "':\n" + result.err());
        } finally {
            deleteTree(dir);
        }
    }

    // ---- (b) one node configuration, not a copy ----

    @Test
    void imageMakesItsConfigurationFromTheRepositoryFiles() throws IOException {
        assertTrue(Files.isRegularFile(root.resolve(CLUSTER_PROFILE)), "no " + CLUSTER_PROFILE);
        assertTrue(Files.isRegularFile(root.resolve(MAKE_NODE_CONFIG)), "no " + MAKE_NODE_CONFIG);

        List<String> instructions = instructions(root.resolve(NODE_DOCKERFILE));
        String copy = instructions.stream()
                .filter(i -> i.startsWith("COPY ") && !i.contains("--from="))
                .filter(i -> words(i).contains(CLUSTER_PROFILE) && words(i).contains(MAKE_NODE_CONFIG))
                .findFirst()
                .orElseGet(() -> fail(NODE_DOCKERFILE + " has no COPY of " + CLUSTER_PROFILE + " and " + MAKE_NODE_CONFIG));
        List<String> copyWords = words(copy);
        String destination = copyWords.get(copyWords.size() - 1);
        assertTrue(destination.endsWith("/"), "the COPY of the node configuration files should go to a directory: " + copy);

        String makes = destination + "make-node-config.sh";
        int copyAt = instructions.indexOf(copy);
        assertTrue(instructions.subList(copyAt + 1, instructions.size()).stream()
                        .anyMatch(i -> i.startsWith("RUN ") && i.contains(makes)),
                NODE_DOCKERFILE + " copies make-node-config.sh to " + destination + " but never runs " + makes);

        // The file it writes is the one the node starts with.
        assertTrue(Files.readString(root.resolve(MAKE_NODE_CONFIG)).contains("siebog-ha.xml"));
        assertTrue(Files.readString(root.resolve("docker/node/entrypoint.sh")).contains("-c siebog-ha.xml"),
                "docker/node/entrypoint.sh should start WildFly with -c siebog-ha.xml");
    }

    /** As ./siebog run deploys them: the examples' WAR beside siebog.ear, built by the image's own build. */
    @Test
    void imageDeploysTheExamplesBesideTheEar() throws IOException {
        List<String> instructions = instructions(root.resolve(NODE_DOCKERFILE));
        String deployments = "/opt/wildfly/standalone/deployments/";
        for (String deployment : List.of("siebog.ear", "siebog-examples.war")) {
            assertTrue(instructions.stream().anyMatch(i -> i.startsWith("COPY ") && words(i).get(words(i).size() - 1).equals(deployments + deployment)),
                    NODE_DOCKERFILE + " does not COPY " + deployment + " into " + deployments);
        }
        assertTrue(instructions.stream().anyMatch(i -> i.startsWith("RUN ") && i.contains("mvnw") && i.contains("siebog-examples")
                        && i.contains("siebog-examples/target/siebog-examples.war")),
                NODE_DOCKERFILE + " does not build siebog-examples and take its WAR");
    }

    @Test
    void dockerKeepsNoWildFlyConfigurationOfItsOwn() throws IOException {
        try (Stream<Path> files = Files.walk(root.resolve("docker"))) {
            List<String> copies = files.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString())
                    .filter(name -> name.endsWith(".cli") || name.endsWith(".xml"))
                    .toList();
            assertEquals(List.of(), copies,
                    "WildFly configuration belongs in " + CONFIG_DIR + ", not under docker/");
        }
    }

    @Test
    void nodesDiscoverEachOtherOnThePortTheConfigurationBinds() throws IOException {
        Map<String, Integer> ports = socketPorts();
        int jgroups = ports.get("jgroups-tcp");
        int failureDetection = ports.get("jgroups-tcp-fd");

        Result result = compose(root, "-f", composeFile.toString(), "config", "--format", "json");
        assertEquals(0, result.exit(), result.err());
        JsonObject services;
        try (JsonReader reader = Json.createReader(new StringReader(result.out()))) {
            services = reader.readObject().getJsonObject("services");
        }
        Map<String, JsonObject> nodes = new TreeMap<>();
        services.forEach((name, service) -> {
            JsonObject build = service.asJsonObject().getJsonObject("build");
            if (build != null && build.getString("dockerfile", "").endsWith(NODE_DOCKERFILE)) {
                nodes.put(name, service.asJsonObject());
            }
        });
        assertEquals(3, nodes.size(), "docker/compose.yaml should build three nodes from " + NODE_DOCKERFILE + ": " + nodes.keySet());
        assertTrue(services.containsKey("cassandra"), "docker/compose.yaml has no cassandra service");

        nodes.forEach((name, node) -> {
            JsonObject env = node.getJsonObject("environment");
            assertNotNull(env, name + " has no environment");
            String hosts = string(env, "SIEBOG_CLUSTER_HOSTS");
            assertNotNull(hosts, name + " has no SIEBOG_CLUSTER_HOSTS");
            Set<String> listed = new TreeSet<>();
            for (String entry : hosts.split(",")) {
                Matcher m = HOST_PORT.matcher(entry.strip());
                assertTrue(m.matches(), name + ": SIEBOG_CLUSTER_HOSTS entry '" + entry + "' is not host[port]");
                assertEquals(jgroups, Integer.parseInt(m.group(2)),
                        name + ": " + entry + " is not on siebog-ha.xml's jgroups-tcp port " + jgroups);
                listed.add(m.group(1));
            }
            assertEquals(nodes.keySet(), listed, name + ": SIEBOG_CLUSTER_HOSTS should list every node");
            assertEquals(name, string(env, "SIEBOG_NODE_NAME"), name + ": SIEBOG_NODE_NAME");
            assertNotNull(string(env, "SIEBOG_CASSANDRA_CONTACT_POINTS"), name + ": SIEBOG_CASSANDRA_CONTACT_POINTS");
            assertNotNull(string(env, "SIEBOG_CASSANDRA_LOCAL_DC"), name + ": SIEBOG_CASSANDRA_LOCAL_DC");
        });

        // The image opens those ports, and DNS discovery defaults to the same one.
        List<String> exposed = instructions(root.resolve(NODE_DOCKERFILE)).stream()
                .filter(i -> i.startsWith("EXPOSE "))
                .flatMap(i -> words(i).stream().skip(1))
                .toList();
        assertTrue(exposed.contains(Integer.toString(jgroups)), "the image does not EXPOSE jgroups-tcp " + jgroups + ": " + exposed);
        assertTrue(exposed.contains(Integer.toString(failureDetection)),
                "the image does not EXPOSE jgroups-tcp-fd " + failureDetection + ": " + exposed);
        assertTrue(Files.readString(root.resolve("docker/node/entrypoint.sh")).contains("SIEBOG_CLUSTER_PORT:-" + jgroups),
                "docker/node/entrypoint.sh's default SIEBOG_CLUSTER_PORT should be " + jgroups);
    }

    /**
     * Prometheus scrapes every node's GET /siebog/api/metrics, logged in, Grafana loads the dashboard,
     * and the dashboard asks only for meters docs/admin.md documents.
     */
    @Test
    void prometheusScrapesEveryNodeAndTheDashboardUsesDocumentedMeters() throws IOException {
        Result result = compose(root, "-f", composeFile.toString(), "config", "--format", "json");
        assertEquals(0, result.exit(), result.err());
        JsonObject services;
        try (JsonReader reader = Json.createReader(new StringReader(result.out()))) {
            services = reader.readObject().getJsonObject("services");
        }
        assertTrue(services.containsKey("prometheus") && services.containsKey("grafana"), "services: " + services.keySet());
        Set<String> nodes = services.keySet().stream().filter(name -> services.getJsonObject(name).containsKey("build"))
                .collect(Collectors.toCollection(TreeSet::new));
        String scrapeConfig = Files.readString(root.resolve("docker/prometheus/prometheus.yml"));
        Matcher targets = Pattern.compile("targets:\\s*\\[([^\\]]*)\\]").matcher(scrapeConfig);
        assertTrue(targets.find(), "docker/prometheus/prometheus.yml lists no targets");
        Set<String> scraped = new TreeSet<>();
        for (String target : targets.group(1).split(",")) {
            String hostPort = target.strip().replace("\"", "");
            assertTrue(hostPort.endsWith(":8080"), hostPort + " is not a node's HTTP port 8080");
            scraped.add(hostPort.substring(0, hostPort.indexOf(':')));
        }
        assertEquals(nodes, scraped, "Prometheus scrapes every node");
        assertTrue(scrapeConfig.contains("metrics_path: /siebog/api/metrics"), "the scrape path is the API's /metrics");
        assertTrue(scrapeConfig.contains("password_file: /etc/prometheus/siebog-password"), "Prometheus logs in, password from a file");
        assertTrue(services.getJsonObject("prometheus").getJsonArray("configs").toString().contains("/etc/prometheus/siebog-password"),
                "compose gives Prometheus that file");

        String documented = Files.readString(root.resolve("docs/admin.md"));
        JsonObject dashboard;
        try (JsonReader reader = Json.createReader(Files.newBufferedReader(root.resolve("docker/grafana/dashboards/siebog-cluster.json")))) {
            dashboard = reader.readObject();
        }
        Set<String> used = new TreeSet<>();
        dashboard.getJsonArray("panels").forEach(panel -> panel.asJsonObject().getJsonArray("targets").forEach(target -> {
            Matcher meter = Pattern.compile("siebog_[a-z_]+").matcher(target.asJsonObject().getString("expr"));
            while (meter.find()) {
                used.add(meter.group().replaceFirst("_(bucket|count|sum|max)$", ""));
            }
        }));
        assertFalse(used.isEmpty(), "the dashboard shows no Siebog meter");
        for (String meter : used) {
            assertTrue(documented.contains("`" + meter), "the dashboard uses " + meter + ", which docs/admin.md does not document");
        }
    }

    // ---- where the ports come from ----

    /**
     * jgroups-tcp and jgroups-tcp-fd ports from the generated siebog-ha.xml when the build made it,
     * else from the dist's standalone-ha.xml and make-node-config.sh, else from the script files.
     */
    private static Map<String, Integer> socketPorts() throws IOException {
        Path wildfly = wildflyHome();
        Path siebogHa = wildfly == null ? null : wildfly.resolve("standalone/configuration/siebog-ha.xml");
        if (siebogHa != null && Files.isRegularFile(siebogHa)) {
            return xmlPorts(siebogHa);
        }
        Map<String, Integer> ports = new TreeMap<>();
        String script = Files.readString(root.resolve(MAKE_NODE_CONFIG));
        Matcher fd = Pattern.compile("socket-binding=jgroups-tcp-fd:add\\([^)]*port=(\\d+)").matcher(script);
        assertTrue(fd.find(), MAKE_NODE_CONFIG + " no longer adds jgroups-tcp-fd with a port; update this test");
        ports.put("jgroups-tcp-fd", Integer.parseInt(fd.group(1)));
        Path standaloneHa = wildfly == null ? null : wildfly.resolve("standalone/configuration/standalone-ha.xml");
        if (standaloneHa != null && Files.isRegularFile(standaloneHa)) {
            ports.put("jgroups-tcp", xmlPorts(standaloneHa).get("jgroups-tcp"));
        } else {
            Matcher tcp = Pattern.compile("siebog\\.cluster\\.hosts:[^\\[]+\\[(\\d+)\\]")
                    .matcher(Files.readString(root.resolve(CLUSTER_PROFILE)));
            assertTrue(tcp.find(), CLUSTER_PROFILE + " has no default siebog.cluster.hosts; update this test");
            ports.put("jgroups-tcp", Integer.parseInt(tcp.group(1)));
        }
        return ports;
    }

    private static Path wildflyHome() throws IOException {
        Path dir = root.resolve("target/wildfly");
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("wildfly-") && Files.isDirectory(p))
                    .max(Comparator.naturalOrder())
                    .orElse(null);
        }
    }

    private static Map<String, Integer> xmlPorts(Path xml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            Document doc = factory.newDocumentBuilder().parse(xml.toFile());
            NodeList bindings = doc.getElementsByTagNameNS("*", "socket-binding");
            Map<String, Integer> ports = new TreeMap<>();
            for (int i = 0; i < bindings.getLength(); i++) {
                Element binding = (Element) bindings.item(i);
                String name = binding.getAttribute("name");
                if (name.equals("jgroups-tcp") || name.equals("jgroups-tcp-fd")) {
                    ports.put(name, port(binding.getAttribute("port")));
                }
            }
            assertTrue(ports.containsKey("jgroups-tcp"), xml + " has no jgroups-tcp socket binding");
            if (xml.getFileName().toString().equals("siebog-ha.xml")) {
                assertTrue(ports.containsKey("jgroups-tcp-fd"), xml + " has no jgroups-tcp-fd socket binding");
            }
            return ports;
        } catch (Exception e) {
            throw new AssertionError("cannot read socket bindings of " + xml, e);
        }
    }

    /** "7600" or an expression with a default, "${some.property:7600}". */
    private static int port(String value) {
        Matcher expression = Pattern.compile("\\$\\{[^:}]+:(\\d+)}").matcher(value);
        return Integer.parseInt(expression.matches() ? expression.group(1) : value.strip());
    }

    // ---- helpers ----

    /** Dockerfile instructions, continuation lines joined, comments dropped. */
    private static List<String> instructions(Path dockerfile) throws IOException {
        List<String> result = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(dockerfile)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.isEmpty())) {
                continue;
            }
            boolean continues = trimmed.endsWith("\\");
            current.append(continues ? trimmed.substring(0, trimmed.length() - 1) : trimmed).append(' ');
            if (!continues) {
                result.add(current.toString().strip().replaceAll("\\s+", " "));
                current.setLength(0);
            }
        }
        if (!current.isEmpty()) {
            result.add(current.toString().strip());
        }
        return result;
    }

    private static List<String> words(String instruction) {
        return Arrays.asList(instruction.split(" "));
    }

    private static String string(JsonObject object, String key) {
        JsonValue value = object.get(key);
        return value instanceof JsonString s ? s.getString() : null;
    }

    /** {@code docker compose ARGS} with an admin password and a cluster secret set: the compose file has no default, any value will do. */
    private static Result compose(Path dir, String... args) {
        return composeWith(Map.of("SIEBOG_ADMIN_PASSWORD", "compose-config-check",
                "SIEBOG_CLUSTER_SECRET", "compose-config-check-secret"), dir, args);
    }

    private static Result composeWith(Map<String, String> environment, Path dir, String... args) {
        List<String> command = new ArrayList<>(compose);
        command.addAll(List.of(args));
        return run(dir, 120, environment, command.toArray(String[]::new));
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result run(Path dir, int timeoutSeconds, String... command) {
        return run(dir, timeoutSeconds, Map.of(), command);
    }

    private static Result run(Path dir, int timeoutSeconds, Map<String, String> environment, String... command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        // Only what the command line says: no COMPOSE_FILE, COMPOSE_PROFILES, ... from the caller.
        builder.environment().keySet().removeIf(key -> key.startsWith("COMPOSE_"));
        builder.environment().remove("SIEBOG_ADMIN_PASSWORD");
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
            }
            return new Result(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static String read(InputStream in) {
        try (in) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        }
    }
}
