package org.siebog.device;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.siebog.platform.Setting;

/**
 * Which web pages may open the device socket. A browser names the page that opens a WebSocket in
 * the handshake's {@code Origin}, and nothing else stops any page a volunteer visits from joining
 * in their name: so a node admits its own origin (the page it serves, e.g. the host page) and the
 * origins listed in {@code siebog.device.allowed-origins}, and no other.
 *
 * <p>A handshake without {@code Origin} comes from a program, not a page (the YCSB binding, the
 * load generators, a Java or Node device): no browser omits it, so no page can pass that way.
 *
 * @param listed    the listed origins, normalised ({@code scheme://host[:port]}, default ports left out)
 * @param anyOrigin {@code *} was listed: every page may join (a public demo, or a test)
 */
record OriginPolicy(Set<String> listed, boolean anyOrigin) {

    static final String PROPERTY = Setting.DEVICE_ALLOWED_ORIGINS.property();

    OriginPolicy {
        listed = Set.copyOf(listed);
    }

    /** The policy configured now (read for every handshake, so a changed property applies to the next one). */
    static OriginPolicy current() {
        return parse(Setting.DEVICE_ALLOWED_ORIGINS.text().orElse(null));
    }

    /** {@code property}: origins separated by commas, {@code *} for any; null or blank lists none. */
    static OriginPolicy parse(String property) {
        if (property == null || property.isBlank()) {
            return new OriginPolicy(Set.of(), false);
        }
        Set<String> entries = Stream.of(property.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
        return new OriginPolicy(entries.stream().filter(e -> !e.equals("*")).map(OriginPolicy::normalise)
                .collect(Collectors.toSet()), entries.contains("*"));
    }

    /**
     * @param origin the handshake's {@code Origin} header, null when there is none
     * @param scheme the request's scheme ({@code http} or {@code https})
     * @param host   the request's {@code Host} header (host and optional port), null when there is none
     */
    boolean admits(String origin, String scheme, String host) {
        if (origin == null || anyOrigin) {
            return true;
        }
        String normalised = normalise(origin);
        return listed.contains(normalised) || host != null && normalised.equals(normalise(scheme + "://" + host));
    }

    /**
     * {@code scheme://host[:port]} in lower case, without the scheme's default port, so that
     * {@code HTTP://Example.org:80} and {@code http://example.org} are one origin. Anything that is
     * not such a URL (e.g. the {@code null} origin of a sandboxed page) stays as it is, so it can only
     * be admitted by listing it exactly.
     */
    static String normalise(String origin) {
        try {
            URI uri = new URI(origin.trim());
            if (uri.getScheme() == null || uri.getHost() == null) {
                return origin.trim();
            }
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            int port = uri.getPort();
            boolean defaultPort = port == -1 || scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (URISyntaxException e) {
            return origin.trim();
        }
    }
}
