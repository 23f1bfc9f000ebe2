package org.siebog.api;

import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A service an agent offers, as the directory facilitator keeps it (FIPA's service-description):
 * its type and name, the interaction protocols, ontologies and content languages it speaks, and
 * properties of its own. Immutable; the sets and the map are copied, sorted and unmodifiable.
 *
 * <pre>{@code
 * ServiceDescription selling = ServiceDescription.of("book-selling", "books-of-" + aid().name())
 *         .withProtocols("fipa-contract-net")
 *         .withProperty("currency", "EUR");
 * }</pre>
 *
 * @param type       what kind of service it is, e.g. {@code book-selling}; what searches mostly ask for
 * @param name       its name, unique among the services of one agent
 * @param protocols  the interaction protocols it is offered through
 * @param ontologies the ontologies its messages use
 * @param languages  the content languages its messages use
 * @param properties further fields, by name
 */
public record ServiceDescription(String type, String name, Set<String> protocols, Set<String> ontologies,
        Set<String> languages, Map<String, String> properties) implements Serializable {

    /**
     * Makes a description; prefer {@link #of(String, String)} and the {@code with...} methods.
     *
     * @param type       {@link #type()}
     * @param name       {@link #name()}
     * @param protocols  {@link #protocols()}
     * @param ontologies {@link #ontologies()}
     * @param languages  {@link #languages()}
     * @param properties {@link #properties()}
     * @throws NullPointerException the type, the name, or an element of a set or the map is null
     */
    public ServiceDescription {
        Objects.requireNonNull(type, "a service needs a type");
        Objects.requireNonNull(name, "a service needs a name");
        protocols = sorted(protocols);
        ontologies = sorted(ontologies);
        languages = sorted(languages);
        properties = sorted(properties);
    }

    /**
     * A service with a type and a name and nothing else.
     *
     * @param type what kind of service it is
     * @param name its name among the agent's services
     * @return the description
     */
    public static ServiceDescription of(String type, String name) {
        return new ServiceDescription(type, name, null, null, null, null);
    }

    /**
     * This service, also offered through {@code more} protocols.
     *
     * @param more protocol names, e.g. {@code fipa-request}
     * @return a copy of this description
     */
    public ServiceDescription withProtocols(String... more) {
        return new ServiceDescription(type, name, union(protocols, more), ontologies, languages, properties);
    }

    /**
     * This service, also speaking {@code more} ontologies.
     *
     * @param more ontology names
     * @return a copy of this description
     */
    public ServiceDescription withOntologies(String... more) {
        return new ServiceDescription(type, name, protocols, union(ontologies, more), languages, properties);
    }

    /**
     * This service, also speaking {@code more} content languages.
     *
     * @param more language names
     * @return a copy of this description
     */
    public ServiceDescription withLanguages(String... more) {
        return new ServiceDescription(type, name, protocols, ontologies, union(languages, more), properties);
    }

    /**
     * This service with one more property (or another value of it).
     *
     * @param key   the property's name
     * @param value its value
     * @return a copy of this description
     */
    public ServiceDescription withProperty(String key, String value) {
        Map<String, String> more = new TreeMap<>(properties);
        more.put(key, value);
        return new ServiceDescription(type, name, protocols, ontologies, languages, more);
    }

    static Set<String> sorted(Collection<String> values) {
        return values == null || values.isEmpty() ? Collections.emptySortedSet()
                : Collections.unmodifiableSortedSet(new TreeSet<>(values));
    }

    static Map<String, String> sorted(Map<String, String> values) {
        return values == null || values.isEmpty() ? Collections.emptySortedMap()
                : Collections.unmodifiableSortedMap(new TreeMap<>(values));
    }

    static Set<String> union(Set<String> values, String... more) {
        Set<String> all = new TreeSet<>(values);
        Collections.addAll(all, more);
        return all;
    }
}
