package org.siebog.rest;

import java.lang.reflect.Method;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.container.ResourceInfo;

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

    /** The roles that may call the matched resource method (its own {@code @RolesAllowed}, else its class's); empty when none is named. */
    static List<String> allowed(ResourceInfo resource) {
        Method method = resource == null ? null : resource.getResourceMethod();
        if (method == null) {
            return List.of();
        }
        RolesAllowed roles = method.isAnnotationPresent(RolesAllowed.class) ? method.getAnnotation(RolesAllowed.class)
                : resource.getResourceClass().getAnnotation(RolesAllowed.class);
        return roles == null ? List.of() : List.of(roles.value());
    }
}
