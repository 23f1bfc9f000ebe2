package org.siebog.agent;

import java.util.Locale;

/** Where an agent class runs and how it keeps state; its JSON name is the lower-case constant. */
public enum AgentKind {
    STATEFUL,
    STATELESS,
    /** A JavaScript agent hosted in a browser device (arrives with the browser-devices issue). */
    CLIENT;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
