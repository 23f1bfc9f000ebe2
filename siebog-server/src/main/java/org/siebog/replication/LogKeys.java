package org.siebog.replication;

/**
 * The names of the inbox log's entries. A <em>writer</em> is one boot of one node
 * ({@code node/boot}); it stores its segments as {@code writer#1}, {@code writer#2}, ... and its
 * {@link WriterManifest} as {@code writer#manifest}. Keys are built, not searched for: a takeover
 * finds an agent's segments from the writer and numbers its record names.
 */
final class LogKeys {

    private static final String MANIFEST = "manifest";

    private LogKeys() {
    }

    static String segment(String writer, long number) {
        return writer + "#" + number;
    }

    static String manifest(String writer) {
        return writer + "#" + MANIFEST;
    }

    static boolean isManifest(String key) {
        return key.endsWith("#" + MANIFEST);
    }

    /** The writer ({@code node/boot}) of a segment or manifest key. */
    static String writerOf(String key) {
        return key.substring(0, key.lastIndexOf('#'));
    }

    /** The node whose boot wrote a segment or manifest key. */
    static String nodeOf(String key) {
        String writer = writerOf(key);
        return writer.substring(0, writer.lastIndexOf('/'));
    }
}
