package org.siebog.rest;

/**
 * Siebog's three roles, as WildFly's application realm grants them ({@code add-user.sh -a -g ...}).
 * They do not include each other: a resource method lists every role that may call it.
 */
final class Roles {

    /** Reads: every GET. */
    static final String VIEWER = "siebog-viewer";
    /** A viewer who may also post messages that speak for no agent ({@code sender} null). */
    static final String USER = "siebog-user";
    /** Everything: agent lifecycle, messages in any agent's name, the examples' benchmark runs. */
    static final String ADMIN = "siebog-admin";

    private Roles() {
    }
}
