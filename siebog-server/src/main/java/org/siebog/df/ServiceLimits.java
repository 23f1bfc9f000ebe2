package org.siebog.df;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.ServiceDescription;
import org.siebog.api.ServiceTemplate;
import org.siebog.platform.Setting;

/**
 * What one directory entry may hold, so that what agents (client agents in browsers among them)
 * register cannot make every node's copy of the directory grow without bound: each text at most
 * {@value #MAX_TEXT} characters, each list {@value #MAX_LIST} names, {@value #MAX_PROPERTIES}
 * properties; an agent at most {@code siebog.df.max-services-per-agent} services, each lease at
 * most {@code siebog.df.max-lease-ms}. Beyond: 400, naming the field, and nothing registered. A
 * lease is the entry's lifespan in its cache ({@link ServiceDirectory#putLeased}).
 */
final class ServiceLimits {

    static final int MAX_TEXT = 1024;
    static final int MAX_LIST = 32;
    static final int MAX_PROPERTIES = 32;
    /** The largest page of a search. */
    static final int MAX_RESULTS = 1000;

    private static final Set<String> FIELDS = Set.of("type", "name", "protocols", "ontologies", "languages", "properties");

    private ServiceLimits() {
    }

    static int maxServicesPerAgent() {
        return Setting.DF_MAX_SERVICES_PER_AGENT.intValue();
    }

    static void checkFields(Collection<String> fields, String what) {
        for (String field : fields) {
            if (!FIELDS.contains(field)) {
                throw new InvalidAgentRequestException(what + " has no field \"" + field + "\"; it has " + FIELDS.stream().sorted().toList());
            }
        }
    }

    static void check(ServiceDescription service) {
        checkText("type", service.type());
        checkText("name", service.name());
        checkRest(service.protocols(), service.ontologies(), service.languages(), service.properties());
    }

    static void check(ServiceTemplate template) {
        checkText("type", template.type());
        checkText("name", template.name());
        checkRest(template.protocols(), template.ontologies(), template.languages(), template.properties());
    }

    static void checkCount(String field, int count, int max) {
        if (count > max) {
            throw new InvalidAgentRequestException("\"" + field + "\" may hold at most " + max + " entries; it holds " + count);
        }
    }

    /** A lease from 1 s to {@code siebog.df.max-lease-ms}, or none (null). */
    static void checkLease(Duration lease) {
        long max = Setting.DF_MAX_LEASE_MS.longValue();
        if (lease != null && (lease.compareTo(Duration.ofSeconds(1)) < 0 || lease.toMillis() > max)) {
            throw new InvalidAgentRequestException("a lease must be from 1000 to " + max + " ms (siebog.df.max-lease-ms), or none; got "
                    + lease.toMillis() + " ms");
        }
    }

    static void checkMaxResults(int maxResults) {
        if (maxResults < 1 || maxResults > MAX_RESULTS) {
            throw new InvalidAgentRequestException("a search answers 1 to " + MAX_RESULTS + " entries at a time; asked for " + maxResults);
        }
    }

    private static void checkRest(Set<String> protocols, Set<String> ontologies, Set<String> languages, Map<String, String> properties) {
        checkList("protocols", protocols);
        checkList("ontologies", ontologies);
        checkList("languages", languages);
        checkCount("properties", properties.size(), MAX_PROPERTIES);
        properties.forEach((key, value) -> {
            checkText("a property's name", key);
            checkText("property \"" + abbreviated(key) + "\"", value);
        });
    }

    private static void checkList(String field, Set<String> values) {
        checkCount(field, values.size(), MAX_LIST);
        values.forEach(value -> checkText("an entry of \"" + field + "\"", value));
    }

    private static void checkText(String field, String value) {
        if (value != null && (value.isEmpty() || value.length() > MAX_TEXT)) {
            throw new InvalidAgentRequestException(field + " must be 1 to " + MAX_TEXT + " characters; it has " + value.length());
        }
    }

    private static String abbreviated(String key) {
        return key.length() <= 40 ? key : key.substring(0, 40) + "…";
    }
}
