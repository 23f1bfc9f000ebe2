package org.siebog.perf.senderreceiver.child;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;

import org.siebog.examples.senderreceiver.RunResult;
import org.siebog.perf.senderreceiver.RunFailedException;
import org.siebog.perf.senderreceiver.RunStatusJson;

/** Reading a reference's child JVM's stdout, and starting one. */
class ChildJvmTest {

    @Test
    void statusLinesAreJsonObjectsAndAnythingElseIsSkipped() {
        assertEquals("ready", ChildJvm.status("{\"state\":\"ready\"}").getString("state"));
        assertNull(ChildJvm.status("Agent container Main-Container@127.0.0.1 is ready."));
        assertNull(ChildJvm.status("{not json"));
        assertNull(ChildJvm.status(""));
    }

    @Test
    void readyIsTheReceiversSignalNotAResult() {
        JsonObject ready = Json.createObjectBuilder().add("state", ChildMain.READY).build();
        assertTrue(ChildJvm.isReady(ready));
        assertTrue(ChildJvm.isReady(ChildJvm.status(ready.toString())));
        assertThrows(RunFailedException.class, () -> RunStatusJson.result(ready));
    }

    @Test
    void theSendersResultAndFailureAreReadAsOnOneNode() throws RunFailedException {
        RunResult result = new RunResult(1000, 300_000, 156.09, 6406.8, 153.8, 158.6);
        JsonObject finished = ChildJvm.status(RunStatusJson.finished(result).toString());
        assertFalse(ChildJvm.isReady(finished));
        assertEquals(result, RunStatusJson.result(finished));

        JsonObject failed = ChildJvm.status(RunStatusJson.failed("JADE ran out of memory").toString());
        assertFalse(ChildJvm.isReady(failed));
        assertEquals("JADE ran out of memory",
                assertThrows(RunFailedException.class, () -> RunStatusJson.result(failed)).getMessage());
    }

    @Test
    void theCommandRunsTheMainClassWithTheOptionsAndArguments() {
        List<String> command = ChildJvm.command(List.of("-Xmx512m", "-Dx=y"), "a.jar", ChildArgsTest.class,
                List.of("41001", "10"));
        assertTrue(command.get(0).endsWith("java"), command.get(0));
        assertEquals(List.of("-Xmx512m", "-Dx=y", "-cp", "a.jar", ChildArgsTest.class.getName(), "41001", "10"),
                command.subList(1, command.size()));
    }
}
