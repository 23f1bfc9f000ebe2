package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cluster traffic needs the cluster secret (docs/security.md, "Between nodes"): a node started with
 * another secret and keystore, told where the cluster's nodes listen, stays out of their view. Its
 * certificate is not the cluster's, so its TLS handshakes with them fail (and they log that) before any
 * of its bytes reach JGroups; it ends up alone in a cluster of its own. Neither can a client that
 * presents no certificate at all: the nodes speak TLS 1.3 and want the cluster's certificate both ways.
 *
 * <p>Real nodes started by the launcher, without Cassandra (state does not matter here). Ports: port
 * offset {@code siebog.it.clusterSecretPortOffset} (default 2000) for the two good nodes, and 200 more
 * for the intruder.
 */
class ClusterSecretIT {

    private static final int OFFSET = Integer.getInteger("siebog.it.clusterSecretPortOffset", 2000);
    private static LocalCluster cluster;
    private static LocalCluster intruder;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = new LocalCluster("secret-it", 2, OFFSET).ownClusterSecret().runOptions("--no-cassandra").start();
    }

    @AfterAll
    static void stopAll() throws Exception {
        try {
            if (intruder != null) {
                intruder.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void aNodeWithAnotherSecretStaysOutOfTheView() throws Exception {
        List<String> good = List.of("127.0.0.1:" + (8080 + OFFSET), "127.0.0.1:" + (8180 + OFFSET));
        assertEquals(good, addresses(cluster.api(1)), "the two nodes with the secret form one cluster");

        // Its own secret and keystore (another cluster's), and the good nodes' JGroups ports to find them.
        intruder = new LocalCluster("secret-it-intruder", 1, OFFSET + 200).ownClusterSecret()
                .runOptions("--no-cassandra", "--join", cluster.jgroupsAddress(1) + "," + cluster.jgroupsAddress(2)).start();
        String intruderAddress = "127.0.0.1:" + (8080 + OFFSET + 200);

        // It tries to join at boot and again when MERGE3 finds the other view (about a minute later,
        // when the intruder logs rejections of its own; how soon varies too much to wait for here).
        // For at least 30 s, and until the coordinator has refused it, the good nodes never list it,
        // and it lists only itself.
        long started = System.currentTimeMillis();
        long deadline = started + 200_000;
        boolean refusedThere = false;
        while (System.currentTimeMillis() < deadline && !(refusedThere && System.currentTimeMillis() - started > 30_000)) {
            for (int n = 1; n <= 2; n++) {
                assertEquals(good, addresses(cluster.api(n)), "node" + n + "'s view, with the intruder trying to join");
            }
            assertEquals(List.of(intruderAddress), addresses(intruder.api(1)), "the intruder's own view");
            refusedThere = refusals(cluster.log(1)) || refusals(cluster.log(2));
            Thread.sleep(2_000);
        }
        assertTrue(refusedThere, "a node of the cluster logs that it refused the intruder's connection");
        for (int n = 1; n <= 2; n++) {
            assertEquals(good, addresses(cluster.api(n)), "node" + n + "'s view at the end");
        }
        // Not even for a moment: every view the intruder's Siebog saw had it alone.
        List<String> views = Files.readString(intruder.log(1)).lines().filter(line -> line.contains("Siebog nodes [")).toList();
        assertFalse(views.isEmpty(), "the intruder logged its views");
        views.forEach(line -> assertTrue(line.endsWith("Siebog nodes [node1]"), line));
    }

    @Test
    void theNodesSpeakOnlyTls13AndOnlyToAPeerWithTheClustersCertificate() throws Exception {
        String config = Files.readString(cluster.configuration(1));
        assertTrue(config.contains("<ssl-context client=\"siebog-cluster-client\" server=\"siebog-cluster-server\"/>"), "JGroups' TCP transport uses TLS");
        String server = config.lines().filter(line -> line.contains("<server-ssl-context name=\"siebog-cluster-server\"")).findFirst().orElseThrow();
        assertTrue(server.contains("protocols=\"TLSv1.3\""), "TLS 1.3 only: " + server);
        assertTrue(server.contains("need-client-auth=\"true\""), "and wants the peer's certificate: " + server);
        assertFalse(config.contains("SYM_ENCRYPT"), "no second layer of encryption under it");

        // A client that trusts whatever the node presents, but has no certificate of its own to show: refused,
        // by JGroups' port and by the port the other nodes' links deliver messages on.
        String jgroups = cluster.jgroupsAddress(1);
        assertRefusesAPeerWithoutTheCertificate(Integer.parseInt(jgroups.substring(jgroups.indexOf('[') + 1, jgroups.indexOf(']'))));
        String linkLine = Files.readString(cluster.log(1)).lines().filter(line -> line.contains("it takes the other nodes' links on "))
                .findFirst().orElseThrow(() -> new AssertionError("node1 logs where it takes the other nodes' links"));
        assertRefusesAPeerWithoutTheCertificate(Integer.parseInt(linkLine.substring(linkLine.lastIndexOf(':') + 1).strip()));
        assertEquals(List.of("127.0.0.1:" + (8080 + OFFSET), "127.0.0.1:" + (8180 + OFFSET)), addresses(cluster.api(1)),
                "and the nodes, with it, form one cluster");
    }

    private static void assertRefusesAPeerWithoutTheCertificate(int port) throws Exception {
        SSLContext anyServer = SSLContext.getInstance("TLSv1.3");
        anyServer.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        try (SSLSocket socket = (SSLSocket) anyServer.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            // TLS 1.3: the node's refusal of the missing certificate comes after the client's side of the
            // handshake, so it surfaces at the first write (the node has already closed: broken pipe) or read
            // (its alert), whichever comes first; either way no byte of this client reaches JGroups or a link.
            assertThrows(IOException.class, () -> {
                socket.getOutputStream().write(new byte[] {0, 0, 0, 1, 2});
                socket.getOutputStream().flush();
                socket.getInputStream().read();
            }, "the node refuses a peer without the certificate on port " + port);
        }
    }

    private static List<String> addresses(ClusterApi api) throws Exception {
        ClusterApi.Reply nodes = api.get("nodes");
        assertEquals(200, nodes.status(), nodes::toString);
        return nodes.array().stream().map(v -> ((JsonObject) v).getString("address")).sorted().toList();
    }

    /** JGroups' TCP transport: a connection whose TLS handshake failed (a peer without the cluster's certificate) is refused. */
    private static boolean refusals(java.nio.file.Path log) throws Exception {
        return Files.exists(log) && Files.readString(log).lines()
                .anyMatch(line -> line.contains("failed accepting connection from peer") && line.contains("SSL"));
    }
}
