package org.siebog.perf.senderreceiver.child;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

/**
 * One reference system's child JVM as the benchmark sees it: its stdout read line by line as it comes
 * (status lines are JSON objects; JADE and Pekko may print other lines), its stderr in a temporary log
 * whose tail explains a failure, its stdin held open as its lifeline ({@link ChildMain#endWhenStdinCloses}).
 * {@link #close()} always ends it.
 */
final class ChildJvm implements AutoCloseable {

    private static final int ERROR_LINES_SHOWN = 5;
    private static final Duration GRACE = Duration.ofSeconds(5);
    /** Marks the end of stdout in {@link #lines}. */
    private static final String END = new String("end of stdout");

    private final String name;
    private final Process process;
    private final Path log;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread reader;
    private JsonObject lastStatus;

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.reader = new Thread(this::readStdout, name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** @param name how failures call it, e.g. "the Receivers' JVM" */
    static ChildJvm start(String name, List<String> command) throws IOException {
        Path log = Files.createTempFile("sender-receiver-child-", ".log");
        try {
            return new ChildJvm(name, new ProcessBuilder(command).redirectError(log.toFile()).start(), log);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(log);
            throw e;
        }
    }

    /** {@code java <jvmOptions> -cp <classpath> <mainClass> <args>}, with the Java running the benchmark. */
    static List<String> command(List<String> jvmOptions, String classpath, Class<?> mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, mainClass.getName()));
        command.addAll(args);
        return command;
    }

    String name() {
        return name;
    }

    /**
     * The next status line the child prints, or null when it ends its stdout (exits) or the deadline
     * passes first.
     */
    JsonObject nextStatus(Instant deadline) throws InterruptedException {
        while (true) {
            long left = Duration.between(Instant.now(), deadline).toMillis();
            String line = left > 0 ? lines.poll(left, TimeUnit.MILLISECONDS) : lines.poll();
            if (line == null) {
                return null;
            }
            if (line == END) {
                lines.add(END);
                return null;
            }
            JsonObject status = status(line);
            if (status != null) {
                lastStatus = status;
                return status;
            }
        }
    }

    /** The last status line it printed, once it has exited and its stdout is read to the end. */
    JsonObject lastStatus() throws InterruptedException {
        while (nextStatus(Instant.now().plus(GRACE)) != null) {
            // Keep the last one.
        }
        return lastStatus;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    boolean waitFor(Duration duration) throws InterruptedException {
        return process.waitFor(duration.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Why it ended, for a failure message: its exit status and the end of its stderr. */
    String ending() {
        String status = process.isAlive() ? "is still running" : "exited with status " + process.exitValue();
        return name + " " + status + tail();
    }

    /**
     * Closes its stdin, which ends a child at once; after a grace period, or if it is still
     * alive anyway, kills it. Never leaves the JVM behind.
     */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // It may be gone already; it is killed below in any case.
        }
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // A leftover temp file is harmless; the run's outcome matters more.
        }
    }

    /** A stdout line as a status, or null when it is not a JSON object (JADE and Pekko may print to stdout too). */
    static JsonObject status(String line) {
        if (!line.startsWith("{")) {
            return null;
        }
        try (JsonReader reader = Json.createReader(new StringReader(line))) {
            return reader.readObject();
        } catch (JsonException e) {
            return null;
        }
    }

    static boolean isReady(JsonObject status) {
        return ChildMain.READY.equals(status.getString("state", ""));
    }

    private void readStdout() {
        try (BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // The child is gone; what it printed so far is in the queue.
        } finally {
            lines.add(END);
        }
    }

    private String tail() {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = all.subList(Math.max(0, all.size() - ERROR_LINES_SHOWN), all.size());
            return last.isEmpty() ? "" : "; its stderr ended with:\n    " + String.join("\n    ", last);
        } catch (IOException e) {
            return "";
        }
    }

    /** The JVM running this benchmark, so the child gets the same Java. */
    private static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
