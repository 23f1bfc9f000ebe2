package org.siebog.it.agents;

import java.util.Map;

import jakarta.ejb.Stateful;

import org.siebog.api.StatefulAgent;

/** Notes that its onStart ran, then refuses to start. */
@Stateful
public class FailingOnStart extends RecordingAgent implements StatefulAgent {

    public static final String REASON = "FailingOnStart refuses to start (on purpose)";

    @Override
    protected void onStart(Map<String, String> args) {
        records.event(aid().name(), "start-attempted");
        throw new IllegalStateException(REASON);
    }
}
