package org.siebog.it.agents;

import java.util.HashMap;
import java.util.Map;

import jakarta.ejb.Stateful;

import org.siebog.api.StatefulAgent;

/**
 * A {@link RecordingAgent} whose handler waits at a gate, closed unless started with {@code gate=open}:
 * the first message it takes holds it (and its lane) until the test calls
 * {@code POST /api/it/gates/{name}/open}, so its mailbox fills deterministically.
 */
@Stateful
public class Slow extends RecordingAgent implements StatefulAgent {

    @Override
    protected void onStart(Map<String, String> args) {
        Map<String, String> withGate = new HashMap<>(args);
        withGate.putIfAbsent("gate", "closed");
        super.onStart(withGate);
    }
}
