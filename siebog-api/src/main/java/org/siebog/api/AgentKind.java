package org.siebog.api;

import java.util.Locale;

/**
 * The kind of an agent class: where its agents run and how they keep state. The kind is the
 * business interface a bean implements ({@link StatefulAgent}, {@link StatelessAgent}); client
 * agents are JavaScript modules run by browser devices. The REST API shows the kind as its
 * {@link #jsonName()}.
 */
public enum AgentKind {
    /** A {@code @Stateful} session bean: one instance per agent, its fields replicated to another node. */
    STATEFUL,
    /** A {@code @Stateless} session bean: pooled; its messages are balanced over the nodes unless it is pinned to one. */
    STATELESS,
    /** A JavaScript agent hosted by a browser device; the server keeps a proxy for it. */
    CLIENT;

    /**
     * The kind as the REST API and the JavaScript library name it.
     *
     * @return the constant in lower case: {@code stateful}, {@code stateless} or {@code client}
     */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
