package org.siebog.delivery;

import org.siebog.api.AID;
import org.siebog.api.Agent;

/**
 * One of the platform's own FIPA agents ({@code df}, {@code topics}, {@code tuples}): hosted on every
 * node by {@link PlatformAgents}, in no directory (like a reply inbox), so a message to it is
 * handled on its sender's node; its name is reserved.
 */
public interface PlatformAgent {

    /** The local name of its AID. */
    String name();

    /** The agent to host on this node as {@code aid}. */
    Agent create(AID aid);
}
