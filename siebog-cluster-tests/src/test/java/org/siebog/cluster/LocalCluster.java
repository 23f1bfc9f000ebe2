package org.siebog.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A local cluster started the way a user starts one: {@code ./siebog run --nodes N --detach}, with
 * its own nodes directory, port offset and Cassandra node (CQL 9542, storage 7500, JMX 7599, files
 * beside the nodes directory) so it never meets a cluster someone is running, nor that cluster's
 * Cassandra on 9042.
 */
final class LocalCluster implements AutoCloseable {

    private final Path root = Path.of(System.getProperty("siebog.root", "..")).toAbsolutePath().normalize();
    private final Path nodesDir;
    /** Beside the nodes, not among them: ./siebog stop takes every directory of nodesDir with a pid for a node. */
    private final Path cassandraDir;
    private final int portOffset;
    private final int nodes;
    /** More options for {@code ./siebog run} (e.g. --no-cassandra, --join) and more environment for the launcher. */
    private final List<String> runOptions = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();

    LocalCluster(String name, int nodes, int portOffset) {
        this.nodes = nodes;
        this.portOffset = portOffset;
        this.nodesDir = root.resolve("siebog-cluster-tests/target/clusters").resolve(name);
        this.cassandraDir = root.resolve("siebog-cluster-tests/target/clusters").resolve(name + "-cassandra");
    }

    /** Adds options to {@code ./siebog run}, e.g. {@code --no-cassandra} or {@code --join hosts}. */
    LocalCluster runOptions(String... options) {
        runOptions.addAll(List.of(options));
        return this;
    }

    /**
     * Its own cluster secret (SIEBOG_CLUSTER_SECRET_FILE) beside the nodes directory, made by the
     * launcher on first use (launcher/cluster-secret.sh), rather than the developer's target/siebog-cluster-secret.
     */
    LocalCluster ownClusterSecret() {
        environment.put("SIEBOG_CLUSTER_SECRET_FILE", nodesDir.resolveSibling(nodesDir.getFileName() + "-cluster-secret").toString());
        return this;
    }

    /**
     * More options for every node's JVM (SIEBOG_NODE_OPTS), e.g. {@code -Dsiebog.replication.copies=3}.
     */
    LocalCluster nodeOptions(String options) {
        environment.put("SIEBOG_NODE_OPTS", options);
        return this;
    }

    /** Where node k's JGroups listens, as TCPPING names it: {@code host[port]}. */
    String jgroupsAddress(int node) {
        return apiUri(node).getHost() + "[" + (7600 + portOffset + (node - 1) * 100) + "]";
    }

    /** Node k's server log (the console, which has everything the server logs). */
    Path log(int node) {
        return nodesDir.resolve("node" + node).resolve("console.log");
    }

    /** Node k's deployment directory, which its deployment scanner watches. */
    Path deployments(int node) {
        return nodesDir.resolve("node" + node).resolve("deployments");
    }

    /** The configuration node k runs (the launcher's copy of the generated siebog-ha.xml). */
    Path configuration(int node) {
        return nodesDir.resolve("node" + node).resolve("configuration").resolve("siebog-ha.xml");
    }

    LocalCluster start() throws IOException, InterruptedException {
        Files.createDirectories(nodesDir);
        List<String> args = new ArrayList<>(List.of("run", "--nodes", Integer.toString(nodes), "--port-offset",
                Integer.toString(portOffset), "--no-build", "--detach"));
        args.addAll(runOptions);
        run(args, 600);
        return this;
    }

    /** Node k's API, e.g. {@code http://127.0.0.1:8580/siebog/api}. */
    ClusterApi api(int node) {
        return new ClusterApi(apiUri(node).toString());
    }

    /** Node k's API, at the address the launcher gave it (loopback, or its own with --netns). */
    java.net.URI apiUri(int node) {
        try {
            return java.net.URI.create(Files.readString(nodesDir.resolve("node" + node).resolve("url")).strip() + "/api");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("node" + node + " was not started by this cluster's launcher", e);
        }
    }

    /** SIGKILL, all the nodes named at the same instant. */
    void kill(String... nodes) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("kill"));
        args.addAll(List.of(nodes));
        run(args, 30);
    }

    /** Starts a killed node again ({@code ./siebog restart}): same name and address, fresh files; returns once it is up. */
    void restart(String node) throws IOException, InterruptedException {
        run(List.of("restart", node), 600);
    }

    /** With --netns: the packets between nodes a and b are dropped, both ways. */
    void cut(int a, int b) throws IOException, InterruptedException {
        run(List.of("cut", "node" + a, "node" + b), 30);
    }

    /** With --netns: node {@code from}'s packets to node {@code to} are dropped; {@code to}'s still reach {@code from}. */
    void cutOneWay(int from, int to) throws IOException, InterruptedException {
        run(List.of("cut", "node" + from, "node" + to, "--one-way"), 30);
    }

    /** With --netns: every cut mended. */
    void heal() throws IOException, InterruptedException {
        run(List.of("heal"), 30);
    }

    /** SIGSTOP: the node stays in its sockets but says nothing, as in a long GC pause or a frozen VM. */
    void pause(String node) throws IOException, InterruptedException {
        run(List.of("pause", node), 30);
    }

    /** SIGCONT after {@link #pause}. */
    void resume(String node) throws IOException, InterruptedException {
        run(List.of("resume", node), 30);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run(List.of("stop"), 120);
    }

    private void run(List<String> args, int timeoutSeconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(root.resolve("siebog").toString());
        command.addAll(args);
        Path log = nodesDir.resolve("launcher.log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("SIEBOG_NODES_DIR", nodesDir.toString());
        builder.environment().put("SIEBOG_CASSANDRA_DIR", cassandraDir.toString());
        // Other ports with -Dsiebog.it.clusterCassandraPort=... (and StoragePort, JmxPort) when these are taken.
        builder.environment().put("SIEBOG_CASSANDRA_PORT", System.getProperty("siebog.it.clusterCassandraPort", "9542"));
        builder.environment().put("SIEBOG_CASSANDRA_STORAGE_PORT", System.getProperty("siebog.it.clusterCassandraStoragePort", "7500"));
        builder.environment().put("SIEBOG_CASSANDRA_JMX_PORT", System.getProperty("siebog.it.clusterCassandraJmxPort", "7599"));
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("./siebog " + String.join(" ", args) + " took over " + timeoutSeconds + " s; see " + log);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("./siebog " + String.join(" ", args) + " failed (exit " + process.exitValue()
                    + "):\n" + Files.readString(log));
        }
    }
}
