package org.siebog.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;

import org.junit.jupiter.api.Test;

/**
 * Every REST endpoint the server ships says who may call it: a resource method without
 * {@code @RolesAllowed} (on itself or its class) would be open to any of Siebog's roles, so a new
 * endpoint must choose. Reads are for every role, but for the few listed in {@link #ADMIN_READS};
 * nothing that changes state is for viewers.
 */
class RolesDeclaredTest {

    private static final Set<String> ALL = Set.of(Roles.VIEWER, Roles.USER, Roles.ADMIN);
    /** Reads for admins only: the sniffer shows what agents say to each other (docs/security.md). */
    private static final Set<String> ADMIN_READS = Set.of("SnifferResource.sniff");

    @Test
    void everyResourceMethodNamesItsRoles() throws IOException {
        List<Method> endpoints = endpoints();
        assertTrue(endpoints.size() >= 8, "found the REST endpoints: " + endpoints); // the examples' are siebog-examples'
        for (Method endpoint : endpoints) {
            RolesAllowed roles = endpoint.isAnnotationPresent(RolesAllowed.class)
                    ? endpoint.getAnnotation(RolesAllowed.class)
                    : endpoint.getDeclaringClass().getAnnotation(RolesAllowed.class);
            String name = endpoint.getDeclaringClass().getSimpleName() + "." + endpoint.getName();
            assertTrue(roles != null, name + " declares no @RolesAllowed");
            assertTrue(ALL.containsAll(Set.of(roles.value())), name + " names a role Siebog does not have: " + List.of(roles.value()));
            if (ADMIN_READS.contains(name)) {
                assertEquals(Set.of(Roles.ADMIN), Set.of(roles.value()), name + ": admins only");
            } else if (endpoint.isAnnotationPresent(GET.class)) {
                assertEquals(ALL, Set.of(roles.value()), name + ": every role reads");
            } else {
                assertFalse(Set.of(roles.value()).contains(Roles.VIEWER), name + " changes something, yet viewers may call it");
            }
        }
    }

    /** The HTTP methods of every @Path class compiled from src/main. */
    private static List<Method> endpoints() throws IOException {
        Path classes = Path.of("target/classes");
        List<Method> endpoints = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class") && !f.toString().contains("$")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type;
                try {
                    type = Class.forName(name, false, RolesDeclaredTest.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError e) {
                    continue;
                }
                if (!type.isAnnotationPresent(jakarta.ws.rs.Path.class)) {
                    continue;
                }
                for (Method method : type.getDeclaredMethods()) {
                    if (Stream.of(GET.class, POST.class, PUT.class, DELETE.class, PATCH.class, HEAD.class)
                            .anyMatch(method::isAnnotationPresent)) {
                        endpoints.add(method);
                    }
                }
            }
        }
        return endpoints;
    }
}
