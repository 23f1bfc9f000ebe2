package org.siebog.api;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * A service in the directory: who offers it, what it is, and until when the registration holds.
 *
 * @param agent   the agent that offers it
 * @param service what it offers
 * @param expires when the registration ends unless renewed (registered again), or null when it
 *                holds until the agent stops or deregisters it
 */
public record ServiceEntry(AID agent, ServiceDescription service, Instant expires) implements Serializable {

    /**
     * Makes an entry.
     *
     * @param agent   {@link #agent()}
     * @param service {@link #service()}
     * @param expires {@link #expires()}
     * @throws NullPointerException the agent or the service is null
     */
    public ServiceEntry {
        Objects.requireNonNull(agent, "an entry needs its agent");
        Objects.requireNonNull(service, "an entry needs its service");
    }
}
