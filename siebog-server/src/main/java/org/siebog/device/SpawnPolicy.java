package org.siebog.device;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.siebog.agent.AgentClass;
import org.siebog.api.AgentKind;
import org.siebog.platform.Setting;

/**
 * Which agent classes a device may start with {@code spawn} ({@code siebog.device.spawnable-classes}):
 * a device is anyone's page, and a server agent it starts runs on the node for as long as nobody
 * stops it. Entries, separated by commas: a class name, {@code kind:client} (or another kind) for
 * every class of that kind, or {@code *} for every class. By default the client agent classes: what
 * runs on devices anyway, as the YCSB binding spawns them. Read at every {@code spawn}.
 *
 * @param names   classes listed by name
 * @param kinds   kinds whose every class is listed
 * @param any     {@code *} was listed
 * @param written the property as configured, for the refusal's message
 */
record SpawnPolicy(Set<String> names, Set<AgentKind> kinds, boolean any, String written) {

    static final String PROPERTY = Setting.DEVICE_SPAWNABLE_CLASSES.property();
    static final String DEFAULT = Setting.DEVICE_SPAWNABLE_CLASSES.documentedDefault();
    private static final String KIND = "kind:";

    SpawnPolicy {
        names = Set.copyOf(names);
        kinds = kinds.isEmpty() ? Set.of() : EnumSet.copyOf(kinds);
    }

    static SpawnPolicy current() {
        return parse(Setting.DEVICE_SPAWNABLE_CLASSES.text().orElseThrow());
    }

    /** @throws IllegalArgumentException a {@code kind:} entry naming no kind (the node refuses every spawn rather than guess) */
    static SpawnPolicy parse(String property) {
        Set<String> entries = Arrays.stream(property.split(",")).map(String::trim).filter(e -> !e.isEmpty())
                .collect(Collectors.toSet());
        Set<AgentKind> kinds = EnumSet.noneOf(AgentKind.class);
        for (String entry : entries) {
            if (entry.startsWith(KIND)) {
                kinds.add(AgentKind.valueOf(entry.substring(KIND.length()).toUpperCase(Locale.ROOT)));
            }
        }
        return new SpawnPolicy(entries.stream().filter(e -> !e.startsWith(KIND) && !e.equals("*")).collect(Collectors.toSet()),
                kinds, entries.contains("*"), property.trim());
    }

    boolean allows(AgentClass type) {
        return any || kinds.contains(type.kind()) || names.contains(type.name());
    }
}
