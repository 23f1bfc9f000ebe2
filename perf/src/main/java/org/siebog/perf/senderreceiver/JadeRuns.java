package org.siebog.perf.senderreceiver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.jade.JadeSenderReceiver;
import org.siebog.perf.senderreceiver.jade.JadeTwoContainerRun;

/**
 * Runs the benchmark on JADE, each configuration in a fresh child JVM with the heap a Siebog node
 * has, so that one run's garbage, threads or OutOfMemoryError cannot touch the next. The child
 * prints one {@link RunStatusJson} line on stdout. With {@code nodes} = 2, two child JVMs with that
 * heap each: the Receivers in one container, the Senders in another ({@link JadeTwoContainerRun}).
 */
public final class JadeRuns {

    static final String HEAP = "-Xmx1g";
    private static final int ERROR_LINES_SHOWN = 5;

    /** @param nodes 1: one container in one JVM; 2: Receivers and Senders in two containers in two JVMs */
    public RunResult run(RunParameters parameters, int nodes, Duration timeout) throws RunFailedException {
        return switch (nodes) {
            case 1 -> run(parameters, timeout);
            case 2 -> JadeTwoContainerRun.run(parameters, HEAP, System.getProperty("java.class.path"), timeout);
            default -> throw new IllegalArgumentException("JADE runs on 1 or 2 nodes, not " + nodes);
        };
    }

    /** One main container in one JVM. */
    RunResult run(RunParameters parameters, Duration timeout) throws RunFailedException {
        Path childLog = null;
        Process child = null;
        try {
            childLog = Files.createTempFile("jade-sender-receiver-", ".log");
            List<String> command = new ArrayList<>(List.of(javaBinary(), HEAP,
                    "-cp", System.getProperty("java.class.path"), JadeSenderReceiver.class.getName()));
            command.addAll(parameters.toArgs());
            child = new ProcessBuilder(command).redirectError(childLog.toFile()).start();
            CompletableFuture<List<String>> stdout = readLines(child);
            if (!child.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new RunFailedException("no result within " + timeout.toSeconds() + " s; killed the JADE JVM");
            }
            JsonObject status = lastJsonLine(stdout.join());
            if (status != null) {
                return RunStatusJson.result(status);
            }
            throw new RunFailedException("the JADE JVM exited with status " + child.exitValue() + " and no result"
                    + tail(childLog));
        } catch (IOException | CompletionException e) {
            throw new RunFailedException("could not run the JADE JVM: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted");
        } finally {
            if (child != null) {
                child.destroyForcibly();
            }
            deleteQuietly(childLog);
        }
    }

    /** The JVM running this benchmark, so the child gets the same Java. */
    private static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Drains the child's stdout on another thread, so a chatty child never blocks on a full pipe. */
    private static CompletableFuture<List<String>> readLines(Process child) {
        return CompletableFuture.supplyAsync(() -> {
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                return reader.lines().toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** JADE may print to stdout too; the result is the last line that is a JSON object. */
    private static JsonObject lastJsonLine(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith("{")) {
                try (JsonReader reader = Json.createReader(new StringReader(lines.get(i)))) {
                    return reader.readObject();
                } catch (JsonException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
        List<String> last = lines.subList(Math.max(0, lines.size() - ERROR_LINES_SHOWN), lines.size());
        return last.isEmpty() ? "" : "; its stderr ended with:\n    " + String.join("\n    ", last);
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // A leftover temp file is harmless; the run's outcome matters more.
            }
        }
    }
}
