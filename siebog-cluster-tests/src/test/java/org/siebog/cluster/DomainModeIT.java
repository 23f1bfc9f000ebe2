package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The admin's domain (docs/admin.md), started as an admin starts it: {@code ./siebog domain start}
 * boots a domain controller and host controller "host1" with server-1 and server-2 in server group
 * "siebog" (profile "ha") and deploys siebog.ear to the group with jboss-cli. Both servers answer,
 * they form one cluster, and a message goes round a Ping on server-1 and a Pong on server-2.
 *
 * <p>The domain lives apart from one an admin may be running (target/domain, port base 1000): its own
 * directory (SIEBOG_DOMAIN_DIR = siebog-cluster-tests/target/domain-it) and port base 1500
 * (SIEBOG_DOMAIN_PORT_BASE): domain controller on 20490, server-1 HTTP 9580 and JGroups 9100,
 * server-2 HTTP 9680 and JGroups 9200. ClusterIT's standalone nodes use offsets 500-700 (HTTP
 * 8580-8780), the Arquillian server offset 3000. The launcher's output: target/domain-it-launcher.log.
 *
 * <p>{@code -Dsiebog.it.domainEar=FILE} runs the domain with another EAR (e.g. while
 * siebog-ear/target/siebog.ear is being rebuilt).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DomainModeIT {

    /** -Dsiebog.it.domainPortBase=N moves every port of the test domain when those below are taken. */
    private static final int PORT_BASE = Integer.getInteger("siebog.it.domainPortBase", 1500);
    private static final Path ROOT = Path.of(System.getProperty("siebog.root", "..")).toAbsolutePath().normalize();
    private static final Path DOMAIN_DIR = ROOT.resolve("siebog-cluster-tests/target/domain-it");
    private static final Path LAUNCHER_LOG = ROOT.resolve("siebog-cluster-tests/target/domain-it-launcher.log");
    private static final ClusterApi SERVER_1 = new ClusterApi("http://127.0.0.1:" + (8080 + PORT_BASE) + "/siebog/api");
    private static final ClusterApi SERVER_2 = new ClusterApi("http://127.0.0.1:" + (8080 + PORT_BASE + 100) + "/siebog/api");
    private static final Thread STOP_ON_EXIT = new Thread(DomainModeIT::stopQuietly, "stop the test domain");

    @BeforeAll
    static void startDomain() throws Exception {
        Files.deleteIfExists(LAUNCHER_LOG);
        Runtime.getRuntime().addShutdownHook(STOP_ON_EXIT); // a killed test run leaves no WildFly behind
        List<String> start = new ArrayList<>(List.of("domain", "start", "--servers", "2", "--no-build"));
        String ear = System.getProperty("siebog.it.domainEar", "");
        if (!ear.isBlank()) {
            start.addAll(List.of("--ear", ear));
        }
        launcher(start, 600);
    }

    @AfterAll
    static void stopDomain() throws Exception {
        try {
            launcher(List.of("domain", "stop"), 180);
        } finally {
            Runtime.getRuntime().removeShutdownHook(STOP_ON_EXIT);
        }
    }

    @Test
    @Order(1)
    void bothServersRunSiebogInOneCluster() throws Exception {
        for (ClusterApi server : List.of(SERVER_1, SERVER_2)) {
            ClusterApi.Reply nodes = server.get("nodes");
            assertEquals(200, nodes.status(), () -> "siebog.ear is deployed on every server: " + nodes);
        }
        // The launcher has waited for the JGroups view; Siebog's own node list follows it.
        long deadline = System.currentTimeMillis() + 120_000;
        for (ClusterApi server : List.of(SERVER_1, SERVER_2)) {
            List<String> names = nodeNames(server);
            while (!names.equals(List.of("server-1", "server-2")) && System.currentTimeMillis() < deadline) {
                Thread.sleep(500);
                names = nodeNames(server);
            }
            assertEquals(List.of("server-1", "server-2"), names, "GET /nodes once the cluster has formed");
        }
    }

    @Test
    @Order(2)
    void aPingOnServer1GetsItsPongFromServer2() throws Exception {
        assertEquals("server-2", SERVER_1.start("Pong", "pong-dm", "server-2", null));
        assertEquals("server-1", SERVER_1.start("Ping", "ping-dm", "server-1", "{\"pong\":\"pong-dm@siebog\"}"));
        assertEquals(202, SERVER_1.tell("REQUEST", "ping-dm@siebog", null, "1"));
        // Ping answers a QUERY_REF with the number of pongs it has had.
        long deadline = System.currentTimeMillis() + 60_000;
        String pongs = SERVER_1.ask("ping-dm@siebog", 10_000);
        while (!pongs.equals("1") && System.currentTimeMillis() < deadline) {
            Thread.sleep(250);
            pongs = SERVER_1.ask("ping-dm@siebog", 10_000);
        }
        assertEquals("1", pongs, "pongs Ping on server-1 has had from Pong on server-2");
    }

    private static List<String> nodeNames(ClusterApi server) throws IOException, InterruptedException {
        ClusterApi.Reply nodes = server.get("nodes");
        assertEquals(200, nodes.status(), nodes::toString);
        return nodes.array().stream().map(v -> ((JsonObject) v).getString("name")).sorted().toList();
    }

    private static void launcher(List<String> args, int timeoutSeconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("siebog").toString());
        command.addAll(args);
        Files.createDirectories(LAUNCHER_LOG.getParent());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(LAUNCHER_LOG.toFile()));
        builder.environment().put("SIEBOG_DOMAIN_DIR", DOMAIN_DIR.toString());
        builder.environment().put("SIEBOG_DOMAIN_PORT_BASE", Integer.toString(PORT_BASE));
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("./siebog " + String.join(" ", args) + " took over " + timeoutSeconds + " s; see " + LAUNCHER_LOG);
        }
        if (process.exitValue() != 0) {
            fail("./siebog " + String.join(" ", args) + " failed (exit " + process.exitValue() + "):\n"
                    + Files.readString(LAUNCHER_LOG));
        }
    }

    private static void stopQuietly() {
        try {
            launcher(List.of("domain", "stop"), 180);
        } catch (Exception | AssertionError e) {
            System.err.println("stopping the test domain: " + e.getMessage());
        }
    }
}
