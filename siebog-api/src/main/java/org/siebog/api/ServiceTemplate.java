package org.siebog.api;

import java.io.Serializable;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a directory search asks for: every field it names must match, every field it leaves out
 * (null, or empty) matches anything. A service matches when it has the template's type and name,
 * offers every protocol, ontology and language the template lists, and has each of its
 * properties with the same value.
 *
 * <pre>{@code
 * ServiceTemplate sellers = ServiceTemplate.ofType("book-selling").withProtocols("fipa-contract-net");
 * }</pre>
 *
 * @param type       the service type asked for, or null for any
 * @param name       the service name asked for, or null for any
 * @param protocols  protocols a service must all offer
 * @param ontologies ontologies a service must all speak
 * @param languages  languages a service must all speak
 * @param properties properties a service must all have, with these values
 */
public record ServiceTemplate(String type, String name, Set<String> protocols, Set<String> ontologies,
        Set<String> languages, Map<String, String> properties) implements Serializable {

    /**
     * Copies and sorts the sets and the map; nulls become empty.
     *
     * @param type       {@link #type()}
     * @param name       {@link #name()}
     * @param protocols  {@link #protocols()}
     * @param ontologies {@link #ontologies()}
     * @param languages  {@link #languages()}
     * @param properties {@link #properties()}
     */
    public ServiceTemplate {
        protocols = ServiceDescription.sorted(protocols);
        ontologies = ServiceDescription.sorted(ontologies);
        languages = ServiceDescription.sorted(languages);
        properties = ServiceDescription.sorted(properties);
    }

    /**
     * Matches every service.
     *
     * @return the empty template
     */
    public static ServiceTemplate any() {
        return new ServiceTemplate(null, null, null, null, null, null);
    }

    /**
     * Matches the services of one type.
     *
     * @param type the type asked for
     * @return the template
     */
    public static ServiceTemplate ofType(String type) {
        return new ServiceTemplate(type, null, null, null, null, null);
    }

    /**
     * This template, also asking for the service's name.
     *
     * @param serviceName the name asked for
     * @return a copy of this template
     */
    public ServiceTemplate withName(String serviceName) {
        return new ServiceTemplate(type, serviceName, protocols, ontologies, languages, properties);
    }

    /**
     * This template, also asking for {@code more} protocols.
     *
     * @param more protocol names a service must offer
     * @return a copy of this template
     */
    public ServiceTemplate withProtocols(String... more) {
        return new ServiceTemplate(type, name, ServiceDescription.union(protocols, more), ontologies, languages, properties);
    }

    /**
     * This template, also asking for {@code more} ontologies.
     *
     * @param more ontology names a service must speak
     * @return a copy of this template
     */
    public ServiceTemplate withOntologies(String... more) {
        return new ServiceTemplate(type, name, protocols, ServiceDescription.union(ontologies, more), languages, properties);
    }

    /**
     * This template, also asking for {@code more} languages.
     *
     * @param more language names a service must speak
     * @return a copy of this template
     */
    public ServiceTemplate withLanguages(String... more) {
        return new ServiceTemplate(type, name, protocols, ontologies, ServiceDescription.union(languages, more), properties);
    }

    /**
     * This template, also asking for a property's value.
     *
     * @param key   the property's name
     * @param value the value it must have
     * @return a copy of this template
     */
    public ServiceTemplate withProperty(String key, String value) {
        Map<String, String> more = new TreeMap<>(properties);
        more.put(key, value);
        return new ServiceTemplate(type, name, protocols, ontologies, languages, more);
    }

    /**
     * Whether {@code service} has everything this template asks for.
     *
     * @param service a registered service
     * @return true when it matches
     */
    public boolean matches(ServiceDescription service) {
        return (type == null || type.equals(service.type()))
                && (name == null || name.equals(service.name()))
                && service.protocols().containsAll(protocols)
                && service.ontologies().containsAll(ontologies)
                && service.languages().containsAll(languages)
                && service.properties().entrySet().containsAll(properties.entrySet());
    }
}
