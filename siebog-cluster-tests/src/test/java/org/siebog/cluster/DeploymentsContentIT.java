package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

/**
 * What the build ships where (docs/architecture.md, "Deployments"): siebog.ear holds the platform and
 * none of the examples nor the tests' agents; siebog-examples.war holds the examples alone, compiled
 * against the API it takes from siebog.ear. Reads the archives this build packaged; starts no server.
 */
class DeploymentsContentIT {

    private static final Path ROOT = Path.of(System.getProperty("siebog.root", "..")).toAbsolutePath().normalize();
    private static final Path EAR = ROOT.resolve("siebog-ear/target/siebog.ear");
    private static final Path EXAMPLES = ROOT.resolve("siebog-examples/target/siebog-examples.war");

    @Test
    void theEarHoldsNoExampleAndNoTestAgent() throws IOException {
        List<String> ear = entries(Files.readAllBytes(EAR));
        assertTrue(ear.contains("siebog-server.war") && ear.contains("lib/siebog-api.jar"), () -> "siebog.ear: " + ear);
        List<String> server = entries(entry(Files.readAllBytes(EAR), "siebog-server.war"));
        assertTrue(server.contains("WEB-INF/classes/org/siebog/agentmanager/AgentClassRegistry.class"), "the server's WAR was read");
        List<String> examples = server.stream().filter(e -> e.startsWith("WEB-INF/classes/org/siebog/examples/")).toList();
        assertEquals(List.of(), examples, "example classes in siebog.ear");
        List<String> clientAgents = server.stream().filter(e -> e.startsWith("agents/") && e.endsWith(".js")).toList();
        // Echo is the platform's own smallest client agent (the device protocol's demos and load generators use it).
        assertEquals(List.of("agents/Echo.js"), clientAgents, "client agents in siebog.ear");
    }

    @Test
    void theExamplesWarHoldsTheExamplesAndDependsOnTheEarForTheApi() throws IOException {
        byte[] war = Files.readAllBytes(EXAMPLES);
        List<String> entries = entries(war);
        for (String example : List.of("pingpong/Ping", "pingpong/Pong", "counter/Counter", "counter/Ticker", "senderreceiver/Sender",
                "senderreceiver/Receiver", "senderreceiver/SenderReceiverResource", "tsp/TspCoordinator")) {
            assertTrue(entries.contains("WEB-INF/classes/org/siebog/examples/" + example + ".class"), () -> example + " in " + entries);
        }
        // WEB-INF/ejb-jar.xml: no transaction per message (WildFly does not see AbstractAgent's annotation from here; docs/agents.md).
        assertTrue(entries.containsAll(List.of("agents/TspAnt.js", "agents/Primes.js", "WEB-INF/jboss-all.xml", "WEB-INF/ejb-jar.xml")),
                entries::toString);
        List<String> notExamples = entries.stream()
                .filter(e -> !e.endsWith("/")) // directories
                .filter(e -> e.startsWith("WEB-INF/lib/") || e.startsWith("WEB-INF/classes/org/") && !e.startsWith("WEB-INF/classes/org/siebog/"))
                .toList();
        assertEquals(List.of(), notExamples, "siebog-examples.war bundles nothing: the API and Jakarta EE come from the server");
        assertTrue(entries.stream().filter(e -> e.startsWith("WEB-INF/classes/org/siebog/") && e.endsWith(".class"))
                .allMatch(e -> e.startsWith("WEB-INF/classes/org/siebog/examples/")), entries::toString);
        Manifest manifest = new Manifest(new ByteArrayInputStream(entry(war, "META-INF/MANIFEST.MF")));
        assertEquals("deployment.siebog.ear", manifest.getMainAttributes().getValue("Dependencies"));
    }

    private static List<String> entries(byte[] archive) throws IOException {
        List<String> names = new ArrayList<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(archive))) {
            for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                names.add(e.getName());
            }
        }
        return names;
    }

    private static byte[] entry(byte[] archive, String name) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(archive))) {
            for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                if (e.getName().equals(name)) {
                    return ((InputStream) zip).readAllBytes();
                }
            }
        }
        throw new IOException(name + " is not in the archive");
    }
}
