package org.siebog.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The README's configuration table and {@link Setting} say the same, and no other class reads a setting. */
class SettingsDocumentedTest {

    private static final Path MODULE = Path.of("").toAbsolutePath();
    /** A row of the table: | `property` | default | meaning |. */
    private static final Pattern ROW = Pattern.compile("^\\| `(siebog\\.[a-z.-]+)` \\| ([^|]*) \\|", Pattern.MULTILINE);

    @Test
    void everySettingIsInTheReadmeWithItsDefault() throws IOException {
        Map<String, String> documented = readmeDefaults();
        for (Setting setting : Setting.values()) {
            String cell = documented.get(setting.property());
            assertTrue(cell != null, setting.property() + " is missing from the README's configuration table");
            String expected = setting.documentedDefault() == null ? "none" : setting.documentedDefault();
            assertTrue(cell.startsWith(expected), setting.property() + ": the README says the default is '" + cell + "', Setting says '"
                    + expected + "'");
        }
    }

    /** Some settings are read by WildFly itself, as expressions in the server's configuration (cluster-profile.cli). */
    @Test
    void everySettingOfTheServerConfigurationIsInTheReadmeWithItsDefault() throws IOException {
        Map<String, String> documented = readmeDefaults();
        Matcher expression = Pattern.compile("\\$\\{(siebog\\.[a-z.-]+):([^}]*)}").matcher(Files.readString(MODULE.resolve("src/main/wildfly/cluster-profile.cli")));
        int found = 0;
        while (expression.find()) {
            found++;
            String cell = documented.get(expression.group(1));
            assertTrue(cell != null, expression.group(1) + " (cluster-profile.cli) is missing from the README's configuration table");
            assertTrue(cell.startsWith(expression.group(2)), expression.group(1) + ": the README says the default is '" + cell
                    + "', cluster-profile.cli says '" + expression.group(2) + "'");
        }
        assertTrue(found >= 3, found + " settings in cluster-profile.cli");
    }

    /** The README's configuration table: each setting's property and the default its row gives. */
    private static Map<String, String> readmeDefaults() throws IOException {
        Map<String, String> documented = new HashMap<>();
        Matcher row = ROW.matcher(Files.readString(MODULE.resolveSibling("README.md")));
        while (row.find()) {
            documented.put(row.group(1), row.group(2).replace("`", "").trim());
        }
        return documented;
    }

    @Test
    void noOtherClassReadsASiebogProperty() throws IOException {
        Pattern read = Pattern.compile("(getProperty|getInteger|getLong|getBoolean)\\(\"siebog\\.");
        List<Path> readers;
        try (Stream<Path> sources = Files.walk(MODULE.resolve("src/main/java"))) {
            readers = sources.filter(p -> p.toString().endsWith(".java") && !p.endsWith("platform/Setting.java"))
                    .filter(p -> read.matcher(text(p)).find()).toList();
        }
        assertEquals(List.of(), readers, "settings are read through Setting, where they are listed with their defaults");
    }

    @Test
    void aBadNumberFallsBackToTheDefault() {
        System.setProperty(Setting.MAILBOX_THROUGHPUT.property(), "lots");
        try {
            assertEquals(32, Setting.MAILBOX_THROUGHPUT.intValue());
        } finally {
            System.clearProperty(Setting.MAILBOX_THROUGHPUT.property());
        }
        System.setProperty(Setting.MAILBOX_THROUGHPUT.property(), " 64 ");
        try {
            assertEquals(64, Setting.MAILBOX_THROUGHPUT.intValue());
        } finally {
            System.clearProperty(Setting.MAILBOX_THROUGHPUT.property());
        }
    }

    private static String text(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
