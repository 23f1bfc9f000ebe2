package org.siebog.perf;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.Authenticator;
import java.net.PasswordAuthentication;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * The login the perf tools call a node's REST API with: user {@code admin}, password
 * {@code SIEBOG_ADMIN_PASSWORD} when set, else the one {@code ./siebog run} keeps in
 * {@code target/siebog-credentials} (the tools run from the repository's root). docs/security.md.
 */
public final class AdminLogin {

    private static final Path CREDENTIALS = Path.of("target", "siebog-credentials");

    static {
        // The JDK's HttpClient keeps an idle connection 20 minutes; a node closes one after 30 s without
        // a request, and a request written just then gets no answer (README, "The REST API"). The JDK
        // reads this when the first client is built: AdminLogin builds every perf tool's clients.
        if (System.getProperty("jdk.httpclient.keepalive.timeout") == null) {
            System.setProperty("jdk.httpclient.keepalive.timeout", "20");
        }
    }

    private AdminLogin() {
    }

    /**
     * The HTTP client every perf tool calls a node with, logged in as admin. HTTP/1.1: over a
     * connection the JDK client had upgraded to HTTP/2, a long run (a 100,000-entry DF load on two
     * nodes) ended in the node's GOAWAY.
     */
    public static HttpClient client(Duration connectTimeout) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).authenticator(authenticator()).build();
    }

    /** For {@code HttpClient.Builder.authenticator}: answers the node's Basic challenge. */
    public static Authenticator authenticator() {
        PasswordAuthentication login = new PasswordAuthentication("admin", password().toCharArray());
        return new Authenticator() {
            @Override
            protected PasswordAuthentication getPasswordAuthentication() {
                return login;
            }
        };
    }

    private static String password() {
        String password = System.getenv("SIEBOG_ADMIN_PASSWORD");
        if (password != null && !password.isEmpty()) {
            return password;
        }
        Properties stored = new Properties();
        try (Reader in = Files.newBufferedReader(CREDENTIALS)) {
            stored.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("no admin password: set SIEBOG_ADMIN_PASSWORD or start the nodes with ./siebog run, "
                    + "which keeps it in " + CREDENTIALS.toAbsolutePath(), e);
        }
        return stored.getProperty("admin", "");
    }
}
